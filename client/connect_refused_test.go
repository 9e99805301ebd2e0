package client_test

import (
	"net"
	"strings"
	"testing"
	"time"

	"zablab/client"
)

// TestConnectSaysWhetherAServerAnswered: a connect that gets no session
// says whether a server took the connection and refused the handshake
// (its log says why; the protocol has no error code for it) or nothing
// answered at all.
func TestConnectSaysWhetherAServerAnswered(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // takes every connection and closes it, as a server refusing the session
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// Nothing listens there now; 127.0.0.2 (loopback too) keeps a listener
	// another test opens on 127.0.0.1 meanwhile from answering.
	nobody := net.JoinHostPort("127.0.0.2", strings.TrimPrefix(closed.Addr().String(), "127.0.0.1:"))
	closed.Close()
	for addr, want := range map[string]string{
		ln.Addr().String(): "a server took the connection but gave no session",
		nobody:             "no server answered (last: dial tcp " + nobody,
	} {
		_, err := client.Connect([]string{addr}, 5*time.Second, client.WithConnectTimeout(time.Second))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Connect(%s) = %v, want an error saying %q", addr, err, want)
		}
	}
}
