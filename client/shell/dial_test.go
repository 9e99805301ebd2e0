package shell

import (
	"bytes"
	"errors"
	"net"
	"regexp"
	"testing"
	"time"
)

// TestConnectSaysThatNothingListens: a shell pointed at an address where
// nothing listens says so on its error output once (at its second refusal,
// about a second in), while it goes on trying until the connect timeout,
// instead of sitting silent.
func TestConnectSaysThatNothingListens(t *testing.T) {
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
	m := regexp.MustCompile(`^dial tcp ` + regexp.QuoteMeta(addr) + `: connect: connection refused: no session from ` +
		regexp.QuoteMeta(addr) + ` yet; trying again for up to (\S+) \(is the server running\?\)\n$`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("error output, want one notice with the time it keeps trying:\n%s", text)
	}
	// The time left, not the whole timeout: go-zk's second try of an
	// address comes after its pause of a second between rounds.
	if left, err := time.ParseDuration(m[1]); err != nil || left >= 2500*time.Millisecond {
		t.Errorf("notice says %s left, want less than the 2.5s timeout:\n%s", m[1], text)
	}
}

// TestDialNoticeWaitsUntilEveryAddressWasTried: with one peer of make
// run's three down, make cli printed the refusal and then answered at once
// from another peer; and localhost is two addresses (127.0.0.1, ::1), of
// which a server listens on one. The shell keeps quiet until an address is
// refused again (go-zk has tried them all), then says once that no session
// came, which also holds where a server took the connection but gave none.
func TestDialNoticeWaitsUntilEveryAddressWasTried(t *testing.T) {
	for _, tc := range []struct {
		servers, what string
		addrs         []string
	}{
		{"127.0.0.2:1,127.0.0.2:2", "ensemble", []string{"127.0.0.2:1", "127.0.0.2:2"}},
		{"localhost:1", "server", []string{"[::1]:1", "127.0.0.1:1"}},
	} {
		var errOut bytes.Buffer
		sh := New(tc.servers, Options{Out: &bytes.Buffer{}, Err: &errOut, ConnectTimeout: time.Second})
		notice := sh.dialNotice()
		text := func() string {
			sh.mu.Lock()
			defer sh.mu.Unlock()
			return errOut.String()
		}
		refusal := func(addr string) error { return errors.New("dial tcp " + addr + ": connect: connection refused") }
		for _, a := range tc.addrs {
			notice(a, refusal(a))
		}
		if got := text(); got != "" {
			t.Fatalf("%s: notice after one refusal per address (another may still answer):\n%q\nwant nothing", tc.servers, got)
		}
		for _, a := range tc.addrs {
			notice(a, refusal(a))
		}
		want := regexp.MustCompile(`^dial tcp ` + regexp.QuoteMeta(tc.addrs[0]) + `: connect: connection refused: no session from ` +
			regexp.QuoteMeta(tc.servers) + ` yet; trying again for up to \S+ \(is the ` + tc.what + ` running\?\)\n$`)
		if got := text(); !want.MatchString(got) {
			t.Errorf("%s: notice once every address was refused:\n%q\nwant one matching %s", tc.servers, got, want)
		}
	}
}
