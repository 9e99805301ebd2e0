package main

import (
	"fmt"
	"strings"
	"testing"

	"zablab/internal/ports"
)

func TestQuoteKeepsArgumentsWhole(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"get", "/a"}, "get /a"},
		{[]string{"set", "/a", "hello world"}, "set /a 'hello world'"},
		{[]string{"set", "/a", "it's"}, `set /a "it's"`},
		{[]string{"create", "/a", ""}, "create /a ''"},
	} {
		if got := quote(c.args); got != c.want {
			t.Errorf("quote(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}

func TestExitCodes(t *testing.T) {
	if code := run([]string{"-bogus"}); code != 2 {
		t.Errorf("unknown option: exit %d, want 2", code)
	}
	if code := run([]string{"-server"}); code != 2 {
		t.Errorf("-server without a value: exit %d, want 2", code)
	}
	p, err := ports.Free(1)
	if err != nil {
		t.Fatal(err)
	}
	// Nothing listens there: a one-shot command must fail, not hang.
	t.Setenv("MWZK_CLI_CONNECT_TIMEOUT", "300ms")
	if code := run([]string{"-server", fmt.Sprintf("127.0.0.1:%d", p[0]), "ls", "/"}); code != 1 {
		t.Errorf("command without a server: exit %d, want 1", code)
	}
}

func TestTimeoutFlag(t *testing.T) {
	for _, args := range [][]string{{"-timeout"}, {"-timeout", "x"}, {"-timeout", "-5"}} {
		if code := run(args); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

// TestServerListChecked: an entry without a port is refused at once with
// the entry named, not after a DNS lookup and the connect timeout.
func TestServerListChecked(t *testing.T) {
	for _, bad := range []string{"nonsense", "127.0.0.1:13181,localhost", "host:0", ":2181"} {
		if err := checkServers(bad); err == nil {
			t.Errorf("checkServers(%q) = nil, want an error", bad)
		}
	}
	if err := checkServers("nonsense"); err == nil || !strings.Contains(err.Error(), `"nonsense": missing :port`) {
		t.Errorf("checkServers(nonsense) = %v", err)
	}
	if err := checkServers("127.0.0.1:13181,[::1]:2181,localhost:2181"); err != nil {
		t.Errorf("good list refused: %v", err)
	}
	if code := run([]string{"-server", "nonsense", "ls", "/"}); code != 2 {
		t.Errorf("-server nonsense: exit %d, want 2", code)
	}
}
