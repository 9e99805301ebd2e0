package recipes_test

import (
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

// sessions opens n sessions.
func sessions(t *testing.T, n int) []*client.MWZooKeeper {
	out := make([]*client.MWZooKeeper, n)
	for i := range out {
		out[i] = connect(t)
	}
	return out
}

const deadline = 30 * time.Second
