package server

import (
	"errors"
	"testing"

	"zablab/internal/ports"
	"zablab/internal/realzk"
)

// startApacheZK runs a 3-peer Apache ZooKeeper ensemble (fsync on, as
// ours) in three JVMs and returns its client addresses; it skips the test
// where java or the jars are missing.
func startApacheZK(t *testing.T) []string {
	t.Helper()
	pp, err := ports.Free(9)
	if err != nil {
		t.Fatal(err)
	}
	servers, err := realzk.StartEnsemble(t.TempDir(), pp, 3)
	if errors.Is(err, realzk.ErrMissing) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var addrs []string
	for _, s := range servers {
		t.Cleanup(s.Stop) // our own JVM, by PID
		addrs = append(addrs, s.Addr)
	}
	return addrs
}
