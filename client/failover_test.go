package client_test

import (
	"errors"
	"testing"
	"time"

	"zablab/client"
	"zablab/client/internal/zktest"
	"zablab/mwzookeeper"
)

// TestFailover stops the server a session is connected to: the handle
// moves to another server of the ensemble with the same session, its
// ephemeral node survives, and so does its watch.
func TestFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-peer ensemble")
	}
	e, err := zktest.NewEnsemble(3)
	if errors.Is(err, zktest.ErrSkip) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer e.Stop()
	z, err := client.Connect(e.Addrs, 6*time.Second, client.WithConnectTimeout(20*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	id := z.SessionID()
	if _, err := z.Create("/eph", []byte("x"), true); err != nil {
		t.Fatal(err)
	}
	_, _, watch, err := z.ExistsW("/later")
	if err != nil {
		t.Fatal(err)
	}
	gone := z.Server()
	if err := e.StopPeer(gone); err != nil {
		t.Fatal(err)
	}
	// Calls in flight fail with a connection loss; the program retries.
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err = z.Create("/later", nil, false)
		if err == nil || !errors.Is(err, mwzookeeper.ErrConnectionLoss) || time.Now().After(deadline) {
			break
		}
	}
	if err != nil && !errors.Is(err, mwzookeeper.ErrNodeExists) { // a lost reply may hide a success
		t.Fatalf("create after the failover: %v", err)
	}
	if z.SessionID() != id || z.Server() == gone {
		t.Fatalf("after failover: session 0x%x on %s, want 0x%x elsewhere than %s", z.SessionID(), z.Server(), id, gone)
	}
	data, err := z.GetData("/eph", nil)
	if err != nil || string(data) != "x" {
		t.Fatalf("the session's ephemeral after failover: %q, %v", data, err)
	}
	// The new server got the watch from the handle (setWatches).
	ev := next(t, "the watch set before the failover", watch, 20*time.Second)
	if ev.Type != mwzookeeper.EventNodeCreated || ev.Path != "/later" {
		t.Errorf("watch after failover: %v, want NodeCreated /later", ev)
	}
}
