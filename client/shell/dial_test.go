package shell

import (
	"bytes"
	"errors"
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

// TestDialNoticeWithSeveralServersSaysOthersAreTried: with one peer of
// make run's three down, the shell said "trying again for up to 10s (is
// the server running?)" and then answered at once from another peer; with
// several servers the note says the others are tried, not that it waits.
func TestDialNoticeWithSeveralServersSaysOthersAreTried(t *testing.T) {
	var errOut bytes.Buffer
	sh := New("127.0.0.2:1,127.0.0.2:2", Options{Out: &bytes.Buffer{}, Err: &errOut, ConnectTimeout: time.Second})
	sh.dialNotice()("127.0.0.2:1", errors.New("dial tcp 127.0.0.2:1: connect: connection refused"))
	sh.mu.Lock()
	text := errOut.String()
	sh.mu.Unlock()
	want := "dial tcp 127.0.0.2:1: connect: connection refused: trying the other servers (and this one again) for up to 1s\n"
	if text != want {
		t.Errorf("notice with two servers:\n%q\nwant\n%q", text, want)
	}
}
