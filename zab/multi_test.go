package zab

import (
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"zablab/internal/wait"
)

func TestEnsembleDeliversEverywhereInOneOrder(t *testing.T) {
	base := runtime.NumGoroutine()
	e := newEnsemble(t, 3)
	e.startAll()
	var msgs []string
	for i := 0; i < 30; i++ {
		m := fmt.Sprintf("m%d", i)
		msgs = append(msgs, m)
		e.propose(1+i%3, m)
	}
	wait.For(t, "all 30 everywhere", 10*time.Second, func() bool {
		for _, a := range e.apps { // proposals of different peers have no order among themselves
			if got, _ := a.snapshot(); len(got) != len(msgs) {
				return false
			}
		}
		return true
	})
	e.agree()
	ids := e.apps[0].ids
	for i := 1; i < len(ids); i++ {
		if ids[i].Zxid <= ids[i-1].Zxid || ids[i].Timestamp <= ids[i-1].Timestamp {
			t.Fatalf("delivery %d (%v) does not follow %v", i, ids[i], ids[i-1])
		}
	}
	e.stopAll()
	noLeakedGoroutines(t, base)
}

func TestLeaderFailoverKeepsDeliveredMessages(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	e.startAll()
	e.propose(1, "before")
	wait.For(t, "before everywhere", 10*time.Second, func() bool { return e.allHave("before") })
	old := e.leader()
	e.stop(old)
	other := 1 + old%3
	after := e.commit(other, "after")
	if !e.allHave("before") {
		t.Fatal("a delivered message is gone after the leader failed")
	}
	e.start(old)
	wait.For(t, "old leader catches up", 10*time.Second, func() bool { return e.allHave("before", after) })
	e.agree()
}

func TestProposeFailsAtOnceWithoutLeader(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	z, err := newMultiZab(e.apps[0], e.cfgs[0], e.lns[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := z.Propose([]byte("x")); !errors.Is(err, ErrNotStarted) {
		t.Fatalf("Propose before Startup: %v, want ErrNotStarted", err)
	}
	e.lns[0] = nil
	if err := z.Startup(); err != nil {
		t.Fatal(err)
	}
	e.zabs[0] = z
	start := time.Now()
	if _, err := z.Propose([]byte("x")); !errors.Is(err, ErrNoLeader) {
		t.Fatalf("Propose alone: %v, want ErrNoLeader", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("Propose without a leader took %s; it must fail at once", d)
	}
	if _, err := z.Propose(make([]byte, MaxMessage+1)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Propose of %d bytes: %v, want ErrTooLarge", MaxMessage+1, err)
	}
	e.stop(1)
	if _, err := z.Propose([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Fatalf("Propose after Shutdown: %v, want ErrClosed", err)
	}
}

func TestRestartRebuildsStateFromSnapshotAndLog(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	e.startAll()
	var last string
	for i := 0; i < 120; i++ { // SnapCount is 50: two snapshots and a log suffix
		last = fmt.Sprintf("v%d", i)
		e.propose(1+i%3, last)
	}
	// Proposals of different peers have no order among themselves: wait for
	// all 120, not for the last one proposed.
	wait.For(t, "all 120 delivered everywhere", 10*time.Second, func() bool {
		for _, a := range e.apps {
			if got, _ := a.snapshot(); len(got) != 120 {
				return false
			}
		}
		return true
	})
	before, _ := e.apps[0].snapshot()
	for i := 1; i <= 3; i++ {
		e.stop(i)
	}
	for i := 1; i <= 3; i++ {
		e.start(i)
	}
	wait.For(t, "state rebuilt on every peer", 10*time.Second, func() bool { return e.allHave(before...) })
	e.agree()
	after, _ := e.apps[0].snapshot()
	if len(after) != len(before) {
		t.Fatalf("restart changed the state: %d messages before, %d after", len(before), len(after))
	}
}

func TestSyncComesAfterEarlierWrites(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	e.startAll()
	e.propose(e.leader(), "w")
	wait.For(t, "w on the leader", 5*time.Second, func() bool {
		got, _ := e.apps[e.leader()-1].snapshot()
		return len(got) == 1
	})
	f := 1 + e.leader()%3
	c, err := e.zabs[f-1].Sync()
	if err != nil {
		t.Fatal(err)
	}
	wait.For(t, "DeliverSync", 5*time.Second, func() bool {
		e.apps[f-1].mu.Lock()
		defer e.apps[f-1].mu.Unlock()
		n, ok := e.apps[f-1].syncs[c.Seq]
		if ok && n < 1 {
			t.Fatalf("DeliverSync on %d before the write committed earlier was delivered", f)
		}
		return ok
	})
}
