package recipes_test

import (
	"context"
	"testing"
	"time"

	"zablab/client/internal/zktest"
	"zablab/client/recipes"
	"zablab/internal/wait"
)

// TestQueueTakeWatchesOnlyAnEmptyQueue: a Take that finds an item at
// once asks for no watch, so none is pending while its delete is in
// flight (a reconnect then re-registers nothing); a Take on an empty
// queue waits on one and gets the next item put.
func TestQueueTakeWatchesOnlyAnEmptyQueue(t *testing.T) {
	srv := zktest.Shared(t)
	dir := zktest.Root(t)
	px, z := throughProxy(t, srv)
	producer := recipes.NewQueue(connect(t), dir)
	if err := producer.Put([]byte("job-1")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	q := recipes.NewQueue(z, dir)
	if data, err := q.Take(ctx); err != nil || string(data) != "job-1" {
		t.Fatalf("Take = %q, %v; want job-1", data, err)
	}
	if n := px.watches.Load(); n != 0 {
		t.Fatalf("a Take that found an item asked for %d watches, want none", n)
	}
	type taken struct {
		data []byte
		err  error
	}
	got := make(chan taken, 1)
	go func() {
		data, err := q.Take(ctx)
		got <- taken{data, err}
	}()
	wait.For(t, "the Take on the empty queue to set its watch", 10*time.Second, func() bool { return px.watches.Load() > 0 })
	if err := producer.Put([]byte("job-2")); err != nil {
		t.Fatal(err)
	}
	if r := <-got; r.err != nil || string(r.data) != "job-2" {
		t.Fatalf("the waiting Take = %q, %v; want job-2", r.data, r.err)
	}
}
