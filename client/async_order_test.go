package client_test

import (
	"testing"
	"time"

	"zablab/mwzookeeper"
)

// TestAsyncThenBlockingKeepsCallOrder: ZooKeeper applies one
// client's requests in the order the client issued them, async and
// synchronous alike (the Java client queues both on one outgoing queue at
// call time). Here an async SetData issued before a blocking SetData from
// the same goroutine may be sent after it, so the earlier write wins.
func TestAsyncThenBlockingKeepsCallOrder(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	for i := 0; i < 20; i++ {
		done := make(chan error, 1)
		z.SetDataAsync(r, []byte("first (async)"), -1, func(_ mwzookeeper.MWStat, err error) { done <- err })
		if _, err := z.SetData(r, []byte("second (blocking)"), -1); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no callback")
		}
		data, err := z.GetData(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != "second (blocking)" {
			t.Fatalf("round %d: data %q: the async write issued first was applied after the blocking write issued second", i, data)
		}
	}
}
