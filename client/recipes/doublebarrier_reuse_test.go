package recipes_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"zablab/client/internal/zktest"
	"zablab/client/recipes"
	"zablab/internal/realzk"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

// TestDoubleBarrierNextRoundStrandsSlowLeaver: the double barrier is
// reusable ("the last one out takes the ready node down for the next
// round"). A process still in Leave of round 1 that looks at the directory
// only after a fast process has entered round 2 sees that process's node;
// if it took it for a round-1 process still inside, it would wait for ever
// and the fast one would wait in Enter for it: deadlock (review bug 4).
func TestDoubleBarrierNextRoundStrandsSlowLeaver(t *testing.T) {
	srv := zktest.Shared(t)
	dir := zktest.Root(t)
	px, zA := throughProxy(t, srv)
	zB := connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	a := recipes.NewDoubleBarrier(zA, dir, "a", 2)
	b := recipes.NewDoubleBarrier(zB, dir, "b", 2)
	entered := make(chan error, 2)
	go func() { entered <- a.Enter(ctx) }()
	go func() { entered <- b.Enter(ctx) }()
	for range 2 {
		if err := <-entered; err != nil {
			t.Fatal(err)
		}
	}
	watches0 := watchCount(srv.Addrs[0])
	aLeft := make(chan error, 1)
	go func() {
		// The cut below may reach a's GetChildrenW reply (the server has
		// set the watch, its reply is still in the proxy): Leave then ends
		// with ConnectionLoss, and its doc says to call it again.
		for {
			err := a.Leave(ctx)
			if !errors.Is(err, mwzookeeper.ErrConnectionLoss) {
				aLeft <- err
				return
			}
			select {
			case <-ctx.Done():
				aLeft <- err
				return
			case <-time.After(10 * time.Millisecond): // a caller's back-off while a reconnects
			}
		}
	}()
	wait.For(t, "a's node gone (a waits in Leave)", 10*time.Second, func() bool {
		ok, _, err := zB.Exists(dir + "/a")
		return err == nil && !ok
	})
	wait.For(t, "a on its child watch", 10*time.Second, func() bool { return watchCount(srv.Addrs[0]) > watches0 })
	px.cut(true) // a is slow: its connection stalls a moment
	if err := b.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	b2 := recipes.NewDoubleBarrier(zB, dir, "b", 2) // b starts round 2
	go func() { _ = b2.Enter(ctx) }()
	wait.For(t, "b entered round 2", 10*time.Second, func() bool {
		ok, _, err := zB.Exists(dir + "/b")
		return err == nil && ok
	})
	px.cut(false)
	select {
	case err := <-aLeft:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a never got out of round 1's Leave although every round-1 process had left: " +
			"it counts b's round-2 node; b waits in Enter for a: deadlock")
	}
}

// watchCount is the server's zk_watch_count (mntr), -1 if unknown.
func watchCount(addr string) int {
	for _, line := range strings.Split(realzk.FourLetter(addr, "mntr"), "\n") {
		if v, ok := strings.CutPrefix(line, "zk_watch_count\t"); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
				return n
			}
		}
	}
	return -1
}
