package client_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"zablab/client"
	"zablab/mwzookeeper"
)

// TestAsyncOrder makes a chain of async calls that only succeed in call
// order (each setData names the version the previous one made) and checks
// that the callbacks ran in call order too.
func TestAsyncOrder(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	a := r + "/a"
	const n = 50
	var mu sync.Mutex
	var order []int
	var errs []error
	record := func(i int, err error) {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, i)
		if err != nil {
			errs = append(errs, fmt.Errorf("call %d: %w", i, err))
		}
	}
	done := make(chan struct{})
	z.CreateAsync(a, nil, mwzookeeper.Persistent, func(_ string, err error) { record(0, err) })
	for i := 1; i <= n; i++ {
		z.SetDataAsync(a, []byte(fmt.Sprint(i)), int32(i-1), func(_ mwzookeeper.MWStat, err error) { record(i, err) })
	}
	z.GetDataAsync(a, func(data []byte, st mwzookeeper.MWStat, err error) {
		if err == nil && (string(data) != fmt.Sprint(n) || st.Version != n) {
			err = fmt.Errorf("read %q version %d after %d writes", data, st.Version, n)
		}
		record(n+1, err)
	})
	z.ExistsAsync(a, func(ok bool, _ mwzookeeper.MWStat, err error) { record(n+2, err) })
	z.GetChildrenAsync(r, func(c []string, _ mwzookeeper.MWStat, err error) { record(n+3, err) })
	z.SyncAsync(a, func(err error) { record(n+4, err) })
	z.MultiAsync([]mwzookeeper.Op{{Op: mwzookeeper.OpCheck, Path: a, Version: n}},
		func(_ []mwzookeeper.OpResult, err error) { record(n+5, err) })
	z.DeleteAsync(a, n, func(err error) { record(n+6, err); close(done) })
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("async callbacks did not all run within 30s")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(errs) > 0 {
		t.Fatalf("async calls failed: %v", errors.Join(errs...))
	}
	for i, got := range order {
		if got != i {
			t.Fatalf("callback %d ran in place %d; order %v", got, i, order)
		}
	}
}

func TestAsyncCallbackMayCallTheHandle(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	got := make(chan error, 1)
	z.CreateAsync(r+"/a", []byte("x"), mwzookeeper.Persistent, func(name string, err error) {
		if err != nil {
			got <- err
			return
		}
		_, err = z.GetData(name, nil) // a blocking call from a callback
		got <- err
	})
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("callback blocked on a call to its own handle")
	}
}

func TestClosedHandle(t *testing.T) {
	z := connect(t)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if z.State() != client.StateClosed {
		t.Fatalf("state after Close: %s", z.State())
	}
	_, err := z.Create("/x", nil, false)
	wantErr(t, "create after Close", err, client.ErrClosed, "/x")
	wantErr(t, "create after Close", err, mwzookeeper.ErrConnectionLoss, "/x")
	got := make(chan error, 1)
	z.DeleteAsync("/x", -1, func(err error) { got <- err })
	select {
	case err := <-got:
		wantErr(t, "async delete after Close", err, client.ErrClosed, "/x")
	case <-time.After(10 * time.Second):
		t.Fatal("async callback after Close never ran")
	}
}
