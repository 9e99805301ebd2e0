package recipes_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"

	"zablab/client/internal/zktest"
	"zablab/client/recipes"
)

func TestQueueFIFO(t *testing.T) {
	z := connect(t)
	dir := zktest.Root(t)
	q := recipes.NewQueue(z, dir)
	if _, ok, err := q.Poll(); err != nil || ok {
		t.Fatalf("poll on a missing queue: %v, %v", ok, err)
	}
	for i := 0; i < 20; i++ {
		if err := q.Put([]byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	for i := 0; i < 20; i++ {
		data, err := q.Take(ctx)
		if err != nil || string(data) != fmt.Sprint(i) {
			t.Fatalf("take %d = %q, %v", i, data, err)
		}
	}
	if _, ok, err := q.Poll(); err != nil || ok {
		t.Fatalf("poll on an empty queue: %v, %v", ok, err)
	}
}

// TestQueueConcurrent: consumers that wait on an empty queue get every
// element exactly once, and each producer's elements in its order.
func TestQueueConcurrent(t *testing.T) {
	const producers, consumers, each = 2, 3, 15
	zks := sessions(t, producers+consumers)
	dir := zktest.Root(t)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	var mu sync.Mutex
	var got []string
	var wg sync.WaitGroup
	errs := make(chan error, producers*each+consumers) // never blocks a consumer
	for c := 0; c < consumers; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := recipes.NewQueue(zks[producers+c], dir)
			last := map[byte]int{}
			for {
				mu.Lock()
				done := len(got) >= producers*each
				mu.Unlock()
				if done {
					return
				}
				data, err := q.Take(ctx)
				if err != nil {
					mu.Lock()
					done := len(got) >= producers*each
					mu.Unlock()
					if !done { // else: woken by the cancel when all were taken
						errs <- fmt.Errorf("consumer %d: %w", c, err)
					}
					return
				}
				var n int
				fmt.Sscanf(string(data[1:]), "%d", &n)
				if prev, ok := last[data[0]]; ok && n < prev {
					errs <- fmt.Errorf("consumer %d took %s after %c%d", c, data, data[0], prev)
				}
				last[data[0]] = n
				mu.Lock()
				got = append(got, string(data))
				if len(got) == producers*each {
					cancel() // wake the consumers still waiting
				}
				mu.Unlock()
			}
		}()
	}
	for p := 0; p < producers; p++ {
		q := recipes.NewQueue(zks[p], dir)
		for i := 0; i < each; i++ {
			if err := q.Put([]byte(fmt.Sprintf("%c%d", 'a'+p, i))); err != nil {
				t.Fatal(err)
			}
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	sort.Strings(got)
	var want []string
	for p := 0; p < producers; p++ {
		for i := 0; i < each; i++ {
			want = append(want, fmt.Sprintf("%c%d", 'a'+p, i))
		}
	}
	sort.Strings(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("taken %v, want each of %v once", got, want)
	}
}
