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

// TestDialNoticeWithSeveralServersWaitsForAll: with one peer of make
// run's three down, make cli printed the refusal and then answered at once
// from another peer. With several servers the shell keeps quiet until an
// address is refused again (go-zk has tried them all), then says once that
// none answers.
func TestDialNoticeWithSeveralServersWaitsForAll(t *testing.T) {
	var errOut bytes.Buffer
	servers := "127.0.0.2:1,127.0.0.2:2"
	sh := New(servers, Options{Out: &bytes.Buffer{}, Err: &errOut, ConnectTimeout: time.Second})
	notice := sh.dialNotice()
	text := func() string {
		sh.mu.Lock()
		defer sh.mu.Unlock()
		return errOut.String()
	}
	refusal := func(addr string) error { return errors.New("dial tcp " + addr + ": connect: connection refused") }
	notice("127.0.0.2:1", refusal("127.0.0.2:1"))
	notice("127.0.0.2:2", refusal("127.0.0.2:2"))
	if got := text(); got != "" {
		t.Fatalf("notice after one refusal per server (another may still answer):\n%q\nwant nothing", got)
	}
	notice("127.0.0.2:1", refusal("127.0.0.2:1"))
	notice("127.0.0.2:2", refusal("127.0.0.2:2"))
	want := "dial tcp 127.0.0.2:1: connect: connection refused: no server of " + servers +
		" answers; trying again for up to 1s (is the ensemble running?)\n"
	if got := text(); got != want {
		t.Errorf("notice once every server was refused:\n%q\nwant\n%q", got, want)
	}
}
