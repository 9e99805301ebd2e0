package client_test

import (
	"errors"
	"testing"
	"time"

	"zablab/client"
	"zablab/client/internal/zktest"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

// TestSessionExpiry cuts a client off its server until the service
// expires its session, then lets it reconnect: the handle must be dead
// (ErrSessionExpired), end its watches with that error, and not open a
// fresh session behind the program's back.
func TestSessionExpiry(t *testing.T) {
	srv := zktest.Shared(t)
	observer := connect(t)
	r := root(t, observer)
	px := newProxy(t, srv.Addrs[0])
	states := make(chan client.State, 16)
	z, err := client.Connect([]string{px.addr()}, time.Second, client.WithConnectTimeout(20*time.Second),
		client.WithStateCallback(func(s client.State) {
			select {
			case states <- s:
			default:
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	eph := r + "/eph"
	if _, err := z.Create(eph, nil, true); err != nil {
		t.Fatal(err)
	}
	_, _, watch, err := z.ExistsW(r + "/never")
	if err != nil {
		t.Fatal(err)
	}
	_, _, gone, err := observer.ExistsW(eph)
	if err != nil {
		t.Fatal(err)
	}

	px.cut(true)
	ev := next(t, "the ephemeral of the cut-off session deleted", gone, 30*time.Second)
	if ev.Type != mwzookeeper.EventNodeDeleted {
		t.Fatalf("observer's event %v, want NodeDeleted (session expired)", ev)
	}
	px.cut(false)
	wait.For(t, "the handle to learn of its expiry", 20*time.Second, func() bool {
		return z.State() == client.StateExpired
	})
	ev = next(t, "the watch ended by the expiry", watch, 10*time.Second)
	if !errors.Is(ev.Err, mwzookeeper.ErrSessionExpired) {
		t.Fatalf("watch after expiry: %v, want ErrSessionExpired", ev)
	}
	_, err = z.Create(r+"/after", nil, true)
	wantErr(t, "create on an expired handle", err, mwzookeeper.ErrSessionExpired, r+"/after")
	// A round trip on the observer later: the handle never came back to life.
	if err := observer.Sync(r); err != nil {
		t.Fatal(err)
	}
	if s := z.State(); s != client.StateExpired {
		t.Fatalf("state after expiry: %s; the handle must stay dead", s)
	}
	if ok, _, _ := observer.Exists(r + "/after"); ok {
		t.Fatal("an expired handle created a node")
	}
	var seen []client.State
	for len(states) > 0 {
		seen = append(seen, <-states)
	}
	if len(seen) == 0 || seen[len(seen)-1] != client.StateExpired {
		t.Fatalf("states reported: %v, want them to end with EXPIRED", seen)
	}
}
