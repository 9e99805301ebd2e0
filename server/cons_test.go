package server

import (
	"strings"
	"testing"

	"zablab/internal/realzk"
)

// wordFrom sends a four-letter word to addr and returns the answer with
// the asking connection's own address replaced by ADDR.
func wordFrom(t *testing.T, addr, word string) string {
	t.Helper()
	out, local := askWord(t, addr, word)
	return strings.ReplaceAll(out, local, "ADDR")
}

// TestConsWithoutSessionsAsZooKeeper: Apache ZooKeeper 3.8 lists the
// connection that asks among the connections of cons (and of stat's
// Clients), so its answer is never empty; ours left the asker out, and a
// peer without sessions answered cons with an empty line, which reads as a
// broken server.
func TestConsWithoutSessionsAsZooKeeper(t *testing.T) {
	zk := realzk.StartT(t)
	s := startServer(t, newFake(), testProps)
	want := wordFrom(t, zk, "cons")
	if got := wordFrom(t, s.Addr().String(), "cons"); got != want {
		t.Errorf("cons without sessions: ours %q, Apache ZooKeeper's %q", got, want)
	}
	if got := wordFrom(t, s.Addr().String(), "stat"); !strings.Contains(got, "Clients:\n"+want) {
		t.Errorf("stat without sessions:\n%s\nwant the asker listed under Clients as cons lists it: %q", got, want)
	}
}
