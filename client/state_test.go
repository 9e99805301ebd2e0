package client_test

import (
	"sync/atomic"
	"testing"
	"time"

	"zablab/client"
	"zablab/client/internal/zktest"
)

// TestConnectReturnsAfterStateCallback: when Connect returns, the state
// callback has seen the session established, so a shell that prints
// session events has printed "SyncConnected" before its first prompt.
// The callback is slow on purpose (a delay inside it, not a wait for
// something): Connect must not overtake it.
func TestConnectReturnsAfterStateCallback(t *testing.T) {
	srv := zktest.Shared(t)
	var seen atomic.Bool
	z, err := client.Connect(srv.Addrs, 4*time.Second, client.WithConnectTimeout(20*time.Second),
		client.WithStateCallback(func(s client.State) {
			if s == client.StateConnected {
				time.Sleep(100 * time.Millisecond) // a slow callback
				seen.Store(true)
			}
		}))
	if err != nil {
		t.Fatalf("connect to %s (%s): %v", srv.Addrs, srv.Kind, err)
	}
	defer z.Close()
	if !seen.Load() {
		t.Fatal("Connect returned before the state callback had seen StateConnected")
	}
}
