package zab

import (
	"sync/atomic"
	"testing"
	"time"

	"zablab/internal/wait"
)

// The go doc: a callback that blocks longer than syncLimit ticks costs the
// peer its place. Here the leader's Deliver blocks for 3/4 of syncLimit (a
// slow application, or equally a slow fsync on the leader), well within
// what the doc allows. A healthy follower that proposes meanwhile must not
// go LOOKING: its leader is alive, only busy, and its connection stands.
// (A rule "half of syncLimit while requests wait" failed this.)
func TestBusyLeaderDoesNotMakeProposingFollowerLook(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	for i := range e.cfgs {
		e.cfgs[i].SyncLimit = 25 // 500 ms: the stall (375 ms) leaves room for a loaded machine
	}
	e.startAll()
	l := e.leader()
	f := l%3 + 1
	stall := 3 * time.Duration(e.cfgs[l-1].SyncLimit) * e.cfgs[l-1].TickTime / 4
	inStall := make(chan struct{})
	var once atomic.Bool
	e.apps[l-1].mu.Lock()
	e.apps[l-1].onDeliver = func(m string) {
		if m == "slow" && once.CompareAndSwap(false, true) {
			close(inStall)
			time.Sleep(stall) // the leader is busy, not gone
		}
	}
	e.apps[l-1].mu.Unlock()
	e.propose(l, "slow")
	<-inStall
	if _, err := e.zabs[f-1].Propose([]byte("while busy")); err != nil {
		t.Fatal(err)
	}
	lookedAt := time.Duration(-1)
	start := time.Now()
	for time.Since(start) < stall+200*time.Millisecond {
		if _, s := e.apps[f-1].snapshot(); s == Looking {
			lookedAt = time.Since(start)
			break
		}
		time.Sleep(time.Millisecond)
	}
	if lookedAt >= 0 {
		t.Fatalf("follower %d went LOOKING %v after proposing while leader %d was busy for %v (syncLimit %v): a live leader lost a follower",
			f, lookedAt.Round(time.Millisecond), l, stall, time.Duration(e.cfgs[l-1].SyncLimit)*e.cfgs[l-1].TickTime)
	}
	wait.For(t, "the proposal everywhere", 10*time.Second, func() bool { return e.allHave("slow", "while busy") })
}
