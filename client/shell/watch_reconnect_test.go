package shell

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"zablab/client/internal/zktest"
)

// TestReconnectedShellPrintsNewNotifications: printEvent remembers the
// Seqs it printed so that one notification prints once, but Seqs number a
// handle's notifications, and connect (or close, then a command that
// reconnects) opens a new handle that counts from 1 again. Its first
// notifications must print all the same, as zkCli prints every
// notification of its new session.
func TestReconnectedShellPrintsNewNotifications(t *testing.T) {
	var out bytes.Buffer
	addr := zktest.Shared(t).Addrs[0]
	s := New(addr, Options{Out: &out, Err: &out, ConnectTimeout: 20 * time.Second})
	if err := s.Connect(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	node := zktest.Root(t)
	s.Exec("create " + node + " v1")
	event := "type:NodeDataChanged path:" + node + "\n"
	for round, cmds := range [][]string{
		{"get -w " + node, "set " + node + " v2"},
		{"connect " + addr, "get -w " + node, "set " + node + " v3"},
	} {
		for _, c := range cmds {
			s.Exec(c)
		}
		s.Exec("ls /") // its reply comes after the notification
		s.mu.Lock()
		printed := out.String()
		s.mu.Unlock()
		if n := strings.Count(printed, event); n != round+1 {
			t.Fatalf("after round %d (%q) %q printed %d times, want %d; output:\n%s",
				round+1, cmds, strings.TrimSpace(event), n, round+1, printed)
		}
	}
}
