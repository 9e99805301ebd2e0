package recipes_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"zablab/client/internal/zktest"
	"zablab/client/recipes"
	"zablab/internal/wait"
)

func TestBarrier(t *testing.T) {
	zks := sessions(t, 3)
	path := zktest.Root(t)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	b := recipes.NewBarrier(zks[0], path)
	if err := b.Set(); err != nil {
		t.Fatal(err)
	}
	if err := b.Set(); err != nil {
		t.Fatalf("raising a raised barrier: %v", err)
	}
	var removed atomic.Bool
	errs := make(chan error, 2)
	for _, z := range zks[1:] {
		go func() {
			err := recipes.NewBarrier(z, path).Wait(ctx)
			if err == nil && !removed.Load() {
				err = fmt.Errorf("Wait returned while the barrier was up")
			}
			errs <- err
		}()
	}
	removed.Store(true)
	if err := b.Remove(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if err := recipes.NewBarrier(zks[1], path).Wait(ctx); err != nil {
		t.Fatalf("Wait on a lowered barrier: %v", err)
	}
}

// TestDoubleBarrier: nobody gets through Enter before all have entered,
// nobody through Leave before all have left.
func TestDoubleBarrier(t *testing.T) {
	const n = 3
	zks := sessions(t, n)
	dir := zktest.Root(t)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	var entering, leaving atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, 2*n) // at most two per process
	for i, z := range zks {
		wg.Add(1)
		var done atomic.Bool
		go func() {
			defer wg.Done()
			defer done.Store(true)
			b := recipes.NewDoubleBarrier(z, dir, fmt.Sprintf("p%d", i), n)
			entering.Add(1)
			if err := b.Enter(ctx); err != nil {
				errs <- fmt.Errorf("p%d enter: %w", i, err)
				return
			}
			if e := entering.Load(); e != n {
				errs <- fmt.Errorf("p%d entered when only %d of %d had come", i, e, n)
			}
			leaving.Add(1)
			if err := b.Leave(ctx); err != nil {
				errs <- fmt.Errorf("p%d leave: %w", i, err)
				return
			}
			if l := leaving.Load(); l != n {
				errs <- fmt.Errorf("p%d left when only %d of %d were leaving", i, l, n)
			}
		}()
		// One at a time: the next comes only when this one is inside
		// Enter (its node exists), so an early return is seen. Not after
		// the last: it completes the barrier, and the whole round (enter
		// and leave, its node created and deleted) can be over before a
		// poll would see its node. A process that is already done (an
		// early return) has reported to errs.
		if i == n-1 {
			continue
		}
		node := fmt.Sprintf("%s/p%d", dir, i)
		wait.For(t, node+" created", deadline, func() bool {
			ok, _, err := zks[0].Exists(node)
			return done.Load() || (err == nil && ok)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
