package server

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"zablab/internal/realzk"
)

// wordFrom sends a four-letter word to addr and returns the answer with
// the asking connection's own address replaced by ADDR.
func wordFrom(t *testing.T, addr, word string) string {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	nc.Write([]byte(word))
	out, err := io.ReadAll(nc)
	if err != nil {
		t.Fatalf("%s: %v", word, err)
	}
	return strings.ReplaceAll(string(out), nc.LocalAddr().String(), "ADDR")
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
