package recipes_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"zablab/client/internal/zktest"
	"zablab/client/recipes"
)

// TestLockMutualExclusion has several sessions increment a counter node
// with unconditional read-modify-write under the lock: without mutual
// exclusion, updates get lost, and two holders at once are seen directly.
func TestLockMutualExclusion(t *testing.T) {
	const contenders, rounds = 4, 8
	zks := sessions(t, contenders)
	dir := zktest.Root(t) + "-lock"
	counter := zktest.Root(t) + "-counter"
	if _, err := zks[0].Create(counter, []byte("0"), false); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	var holders atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, contenders*(rounds+1)) // never blocks a contender
	for i, z := range zks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := recipes.NewLock(z, dir)
			for r := 0; r < rounds; r++ {
				if err := l.Lock(ctx); err != nil {
					errs <- fmt.Errorf("contender %d round %d: lock: %w", i, r, err)
					return
				}
				if h := holders.Add(1); h != 1 {
					errs <- fmt.Errorf("contender %d round %d: %d holders at once", i, r, h)
				}
				data, err := z.GetData(counter, nil)
				if err == nil {
					n, _ := strconv.Atoi(string(data))
					_, err = z.SetData(counter, []byte(strconv.Itoa(n+1)), -1)
				}
				holders.Add(-1)
				if err == nil {
					err = l.Unlock()
				}
				if err != nil {
					errs <- fmt.Errorf("contender %d round %d: %w", i, r, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	data, err := zks[0].GetData(counter, nil)
	if err != nil || string(data) != strconv.Itoa(contenders*rounds) {
		t.Fatalf("counter = %q, %v; want %d", data, err, contenders*rounds)
	}
	left, err := zks[0].GetChildren(dir)
	if err != nil || len(left) != 0 {
		t.Fatalf("lock nodes left after all unlocked: %v, %v", left, err)
	}
}

// TestLockReleasedByClose: a holder whose session ends releases the lock.
func TestLockReleasedByClose(t *testing.T) {
	zks := sessions(t, 2)
	dir := zktest.Root(t)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	first := recipes.NewLock(zks[0], dir)
	if err := first.Lock(ctx); err != nil {
		t.Fatal(err)
	}
	second := recipes.NewLock(zks[1], dir)
	got := make(chan error, 1)
	go func() { got <- second.Lock(ctx) }()

	short, stop := context.WithTimeout(ctx, 0)
	stop()
	if err := recipes.NewLock(zks[1], dir).Lock(short); err == nil {
		t.Fatal("a third contender got the lock while it was held")
	}
	zks[0].Close()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("second contender after the holder's session closed: %v", err)
		}
	case <-time.After(deadline):
		t.Fatal("the lock was not released when its holder's session closed")
	}
}
