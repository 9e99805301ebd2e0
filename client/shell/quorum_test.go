package shell

import (
	"net"
	"strings"
	"testing"
)

// answering listens on loopback and answers every connection with text
// (as a server answers a four-letter word) until the test ends.
func answering(t *testing.T, text string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 4)
			c.Read(buf)
			c.Write([]byte(text))
			c.Close()
		}
	}()
	return ln.Addr().String()
}

// TestQuorumHint: when every server that answers says it is not serving,
// the shell says there is no quorum, naming the servers; when one serves,
// or none answers, it says nothing.
func TestQuorumHint(t *testing.T) {
	looking := answering(t, "This ZooKeeper instance is not currently serving requests\n")
	serving := answering(t, "Zookeeper version: 3.8.0\nMode: follower\n")
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := ln.Addr().String()
	ln.Close()
	got := quorumHint([]string{looking, dead})
	for _, want := range []string{"the peers at " + looking + " run but serve no requests", "no quorum (LOOKING", "never reported serving", "nothing answers at " + dead,
		"majority of the peers"} {
		if !strings.Contains(got, want) {
			t.Errorf("hint %q lacks %q", got, want)
		}
	}
	if got := quorumHint([]string{looking, serving}); got != "" {
		t.Errorf("with a serving server: hint %q, want none", got)
	}
	if got := quorumHint([]string{dead}); got != "" {
		t.Errorf("with no server answering: hint %q, want none", got)
	}
}
