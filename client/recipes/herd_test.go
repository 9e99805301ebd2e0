package recipes

import (
	"context"
	"testing"
	"time"

	"zablab/client"
	"zablab/client/internal/zktest"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

// TestLockNoHerd queues several waiters behind a holder and checks that
// each watches exactly its predecessor: a release then wakes one waiter.
func TestLockNoHerd(t *testing.T) {
	const waiters = 4
	srv := zktest.Shared(t)
	dir := zktest.Root(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var zks []*client.MWZooKeeper
	for i := 0; i <= waiters; i++ {
		z, err := client.Connect(srv.Addrs, 4*time.Second, client.WithConnectTimeout(20*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { z.Close() })
		zks = append(zks, z)
	}
	holder := NewLock(zks[0], dir)
	if err := holder.Lock(ctx); err != nil {
		t.Fatal(err)
	}
	locks := []*Lock{holder}
	for i := 1; i <= waiters; i++ {
		l := NewLock(zks[i], dir)
		locks = append(locks, l)
		go l.Lock(ctx) // ends with ctx at the latest
		wait.For(t, "waiter watching", 20*time.Second, func() bool { return l.t.watching.Load() != nil })
	}
	for i := 1; i <= waiters; i++ {
		got := *locks[i].t.watching.Load()
		if want := locks[i-1].Node(); got != want {
			t.Errorf("waiter %d watches %s, want its predecessor %s", i, got, want)
		}
	}
	if err := holder.Unlock(); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "the next waiter holding the lock", 20*time.Second, func() bool {
		q, err := locks[1].t.queue()
		return err == nil && len(q) == waiters && mwzookeeper.Join(dir, q[0]) == locks[1].Node()
	})
}
