package shell

import (
	"bytes"
	"net"
	"strings"
	"testing"
	"time"
)

// TestConnectSaysAtOnceThatNothingListens: a shell pointed at an address
// where nothing listens says so on its error output once, while it goes
// on trying until the connect timeout, instead of sitting silent.
func TestConnectSaysAtOnceThatNothingListens(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	// 127.0.0.2 is loopback too; no other test listens there.
	addr := net.JoinHostPort("127.0.0.2", port)
	var errOut bytes.Buffer
	sh := New(addr, Options{Out: &bytes.Buffer{}, Err: &errOut, ConnectTimeout: 2500 * time.Millisecond})
	defer sh.Close()
	if err := sh.Connect(); err == nil {
		t.Fatalf("Connect(%s) succeeded; nothing listens there", addr)
	}
	sh.mu.Lock()
	text := errOut.String()
	sh.mu.Unlock()
	if n := strings.Count(text, addr); n != 1 || !strings.Contains(text, "trying again for up to 2.5s") {
		t.Errorf("error output names %s %d times, want once with the time it keeps trying:\n%s", addr, n, text)
	}
}
