package client_test

import (
	"errors"
	"testing"
	"time"

	"zablab/client"
	"zablab/client/internal/zktest"
)

func TestMain(m *testing.M) { zktest.Main(m) }

// connect opens a session on the package's server, closed after t.
func connect(t *testing.T) *client.MWZooKeeper {
	t.Helper()
	srv := zktest.Shared(t)
	z, err := client.Connect(srv.Addrs, 4*time.Second, client.WithConnectTimeout(20*time.Second))
	if err != nil {
		t.Fatalf("connect to %s (%s): %v", srv.Addrs, srv.Kind, err)
	}
	t.Cleanup(func() { z.Close() })
	return z
}

// root creates t's own node and returns its path.
func root(t *testing.T, z *client.MWZooKeeper) string {
	t.Helper()
	r := zktest.Root(t)
	if _, err := z.Create(r, nil, false); err != nil {
		t.Fatalf("create %s: %v", r, err)
	}
	return r
}

// wantErr fails t unless err wraps want and names path.
func wantErr(t *testing.T, what string, err, want error, path string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: got error %v, want %v", what, err, want)
	}
	if path != "" && !containsPath(err.Error(), path) {
		t.Fatalf("%s: error %q does not name the path %s", what, err, path)
	}
}

func containsPath(msg, path string) bool {
	for i := 0; i+len(path) <= len(msg); i++ {
		if msg[i:i+len(path)] == path {
			return true
		}
	}
	return false
}

// next receives one event or fails after d.
func next(t *testing.T, what string, ch <-chan client.Event, d time.Duration) client.Event {
	t.Helper()
	select {
	case ev := <-ch:
		return ev
	case <-time.After(d):
		t.Fatalf("no event within %s: %s", d, what)
	}
	return client.Event{}
}
