package zab

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"zablab/internal/wait"
)

// Regression tests of issue 7's four bugs (found in a review on
// 2026-11-23); each failed on the code before the fix.

// Bug 1: Shutdown must return while Deliver calls Propose.
func TestShutdownWhileDeliverProposes(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	e.startAll()
	l := e.leader()
	var z atomic.Pointer[MultiZab]
	z.Store(e.zabs[l-1])
	e.apps[l-1].mu.Lock()
	var n atomic.Int64
	e.apps[l-1].onDeliver = func(string) { // a follow-up for every delivery: the leader never idles
		_, _ = z.Load().Propose([]byte(fmt.Sprint("re:", n.Add(1)))) // ErrClosed once shut down: fine
	}
	e.apps[l-1].mu.Unlock()
	stop := make(chan struct{})
	streamed := make(chan struct{})
	var fails atomic.Int64
	go func() { // proposals streaming from a follower, at most 64 ahead
		defer close(streamed)
		f, fapp := e.zabs[l%3], e.apps[l%3]
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			if got, _ := fapp.snapshot(); len(got) < i/2-64 {
				i--
				continue
			}
			if _, err := f.Propose([]byte(fmt.Sprint("m", i))); err != nil {
				fails.Add(1)
			}
		}
	}()
	wait.For(t, "follow-ups proposed from Deliver", 5*time.Second, func() bool {
		got, _ := e.apps[l-1].snapshot()
		return slices.ContainsFunc(got, func(m string) bool { return strings.HasPrefix(m, "re:") }) && len(got) > 200
	})
	t.Logf("%d proposals of the follower failed", fails.Load())
	done := make(chan error, 1)
	go func() { done <- e.zabs[l-1].Shutdown() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Shutdown: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Shutdown of the leader did not return within 5 s while Deliver proposes")
	}
	e.zabs[l-1] = nil
	close(stop)
	<-streamed
}

// Bug 2: on a follower, Propose(w) then Sync(): DeliverSync must come after
// Deliver(w).
func TestSyncAfterOwnProposalOnFollower(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	e.startAll()
	f := e.leader()%3 + 1
	z, app := e.zabs[f-1], e.apps[f-1]
	type pair struct {
		w    string
		sync uint64
	}
	var pairs []pair
	for i := 0; i < 50; i++ {
		w := fmt.Sprint("w", i)
		if _, err := z.Propose([]byte(w)); err != nil {
			t.Fatal(err)
		}
		c, err := z.Sync()
		if err != nil {
			t.Fatal(err)
		}
		if !c.Sync {
			t.Fatalf("Sync returned %v without Sync set", c)
		}
		pairs = append(pairs, pair{w, c.Seq})
	}
	wait.For(t, "every DeliverSync", 10*time.Second, func() bool {
		app.mu.Lock()
		defer app.mu.Unlock()
		return len(app.syncs) == len(pairs)
	})
	app.mu.Lock()
	defer app.mu.Unlock()
	bad := 0
	for _, p := range pairs {
		if i := slices.Index(app.msgs, p.w); i < 0 || i >= app.syncs[p.sync] {
			bad++
		}
	}
	if bad > 0 {
		t.Fatalf("in %d of %d runs DeliverSync came before Deliver of the write proposed just before Sync", bad, len(pairs))
	}
}

// requestKey is what names a request for ever.
func requestKey(c TxnCookie) [3]uint64 { return [3]uint64{c.Proposer, c.Incarnation, c.Seq} }

// Bug 3: a proposal made before a restart and one made after it must not
// carry the same request name.
func TestCookiesUniqueAcrossRestart(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	e.startAll()
	l := e.leader()
	f := l%3 + 1
	cx, err := e.zabs[f-1].Propose([]byte("X"))
	if err != nil {
		t.Fatal(err)
	}
	wait.For(t, "X on the leader", 5*time.Second, func() bool { got, _ := e.apps[l-1].snapshot(); return slices.Contains(got, "X") })
	e.stop(f) // the proposer restarts; X may or may not have been delivered to it
	e.start(f)
	var cy TxnCookie
	wait.For(t, "the restarted peer to take Y", 10*time.Second, func() bool {
		cy, err = e.zabs[f-1].Propose([]byte("Y"))
		return err == nil
	})
	if requestKey(cx) == requestKey(cy) {
		t.Fatalf("X and Y proposed with the same cookie %v", cx)
	}
	wait.For(t, "Y on the leader", 5*time.Second, func() bool { got, _ := e.apps[l-1].snapshot(); return slices.Contains(got, "Y") })
	app := e.apps[l-1]
	app.mu.Lock()
	defer app.mu.Unlock()
	seen := map[[3]uint64]string{}
	for i, c := range app.ids {
		if prev, dup := seen[requestKey(c)]; dup {
			t.Fatalf("%q and %q delivered with the same request name %v", prev, app.msgs[i], requestKey(c))
		}
		seen[requestKey(c)] = app.msgs[i]
	}
}
