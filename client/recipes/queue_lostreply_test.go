package recipes_test

import (
	"context"
	"testing"
	"time"

	"zablab/client/internal/zktest"
	"zablab/client/recipes"
)

// TestQueueTakeLosesItemOnLostDeleteReply: the Queue promises each
// element is taken exactly once. A consumer whose delete succeeded on the
// server but whose reply was lost gets an error from Take, and the item is
// gone from the queue: nobody ever receives it.
func TestQueueTakeLosesItemOnLostDeleteReply(t *testing.T) {
	srv := zktest.Shared(t)
	dir := zktest.Root(t)
	px, z := throughProxy(t, srv)
	producer := connect(t)
	if err := recipes.NewQueue(producer, dir).Put([]byte("job-1")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	px.op.Store(2) // delete
	px.armed.Store(true)
	data, err := recipes.NewQueue(z, dir).Take(ctx)
	if err == nil {
		t.Logf("consumer got %q", data)
		return
	}
	if px.fired.Load() == 0 {
		t.Fatalf("the proxy never dropped the delete's reply: %v", err)
	}
	_, ok, perr := recipes.NewQueue(producer, dir).Poll()
	if perr != nil {
		t.Fatal(perr)
	}
	if !ok {
		t.Fatalf("Take failed (%v) and the item is gone from the queue: job-1 was taken by nobody", err)
	}
}
