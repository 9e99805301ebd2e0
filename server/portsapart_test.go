package server

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"testing"

	"zablab/properties"
)

// clashes says whether this machine refuses a second listen on b's port
// after a first on a, the fact portsApart stands in for when it reads the
// file; ok is false when a cannot be listened on at all (no IPv6 here).
func clashes(t *testing.T, a, b string) (clash, ok bool) {
	t.Helper()
	first, err := net.Listen("tcp", net.JoinHostPort(a, "0"))
	if err != nil {
		return false, false
	}
	defer first.Close()
	port := first.Addr().(*net.TCPAddr).Port
	second, err := net.Listen("tcp", net.JoinHostPort(b, strconv.Itoa(port)))
	if err != nil {
		return true, true
	}
	second.Close()
	return false, true
}

// TestOnePortTwoSpellings: the admin API on the client port is refused
// while reading the file only when both addresses are written alike. The
// same address written otherwise ("::1" and "0:0:0:0:0:0:0:1"), or a
// wildcard ("0.0.0.0", "::") with any address, passed the check and failed
// at the second listen as "address already in use", exit 1 ("try again
// later") for a file no restart can help.
func TestOnePortTwoSpellings(t *testing.T) {
	cases := []struct{ client, admin string }{
		{"::1", "0:0:0:0:0:0:0:1"},
		{"0.0.0.0", "127.0.0.1"},
		{"127.0.0.1", "0.0.0.0"},
		{"::", "127.0.0.1"},
		{"::", "0.0.0.0"},
		{"::ffff:127.0.0.1", "127.0.0.1"},
		{"127.0.0.1", "127.0.0.1"},
	}
	for _, c := range cases {
		clash, ok := clashes(t, c.client, c.admin)
		if !ok {
			t.Logf("%s then %s: cannot listen on %s here, case skipped", c.client, c.admin, c.client)
			continue
		}
		if !clash { // a wildcard beside a specific address, off Linux
			t.Logf("%s then %s: both listens succeed here, case skipped", c.client, c.admin)
			continue
		}
		text := fmt.Sprintf("clientPort=2181\nclientPortAddress=%s\nadmin.serverPort=2181\nadmin.serverAddress=%s\n", c.client, c.admin)
		p, _ := properties.LoadString(text)
		if _, err := ConfigFromProperties(p, true); !errors.Is(err, ErrConfig) {
			t.Errorf("clientPortAddress=%s, admin.serverAddress=%s, one port: got %v; want ErrConfig (the second listen fails as address in use)",
				c.client, c.admin, err)
		}
	}
}

// TestDifferentAddressesSharePort: two specific addresses may share a port
// (each listener binds its own), and the check must not refuse them.
func TestDifferentAddressesSharePort(t *testing.T) {
	for _, c := range []struct{ client, admin string }{{"127.0.0.1", "127.0.0.2"}, {"127.0.0.1", "::1"}} {
		text := fmt.Sprintf("clientPort=2181\nclientPortAddress=%s\nadmin.serverPort=2181\nadmin.serverAddress=%s\n", c.client, c.admin)
		p, _ := properties.LoadString(text)
		if _, err := ConfigFromProperties(p, true); err != nil {
			t.Errorf("clientPortAddress=%s, admin.serverAddress=%s: %v; want accepted", c.client, c.admin, err)
		}
	}
}
