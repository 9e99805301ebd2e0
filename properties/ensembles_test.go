package properties

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEnsembleFiles checks the repository's ready-made peer files: they
// load, name themselves right, agree on their ensemble, use distinct peer
// and client ports below 32768 and distinct data folders.
func TestEnsembleFiles(t *testing.T) {
	ports := map[string]string{}
	dirs := map[string]string{}
	for _, n := range []int{1, 3, 5} {
		var first map[int]string
		for i := 1; i <= n; i++ {
			file := filepath.Join("..", "testdata", fmt.Sprintf("ensemble%d", n), fmt.Sprintf("peer%d.properties", i))
			p, err := LoadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if id, err := p.Int("myid", 0); err != nil || id != i {
				t.Errorf("%s: myid = %d (%v), want %d", file, id, err, i)
			}
			peers, err := p.Indexed("peer")
			if err != nil || len(peers) != n {
				t.Fatalf("%s: %d peers (%v), want %d", file, len(peers), err, n)
			}
			if first == nil {
				first = peers
				checkPorts(t, file, peers, ports)
			} else if d := cmp.Diff(first, peers); d != "" {
				t.Errorf("%s: peers differ from peer1's (-peer1 +here):\n%s", file, d)
			}
			checkClientPort(t, file, p, ports)
			for _, key := range []string{"dataLogDir", "dataSnapDir"} {
				d := p.Path(key, "")
				if prev, dup := dirs[d]; dup || d == "" {
					t.Errorf("%s: %s %q empty or also used by %s", file, key, d, prev)
				}
				dirs[d] = file
			}
		}
	}
}

// checkClientPort checks clientPort: a port below 32768 that no peer port
// and no other peer's clientPort uses.
func checkClientPort(t *testing.T, file string, p *Properties, seen map[string]string) {
	t.Helper()
	n, err := p.Int("clientPort", 0)
	if err != nil || n <= 0 || n >= 32768 {
		t.Errorf("%s: clientPort=%d (%v), want a port below 32768", file, n, err)
		return
	}
	port := strconv.Itoa(n)
	if prev, dup := seen[port]; dup {
		t.Errorf("%s: clientPort %s also used by %s", file, port, prev)
	}
	seen[port] = file
}

func checkPorts(t *testing.T, file string, peers map[int]string, seen map[string]string) {
	t.Helper()
	for i, addr := range peers {
		host, port, err := net.SplitHostPort(addr)
		n, perr := strconv.Atoi(port)
		if err != nil || perr != nil || host != "127.0.0.1" || n <= 0 || n >= 32768 {
			t.Errorf("%s: peer%d=%q is not 127.0.0.1 with a port below 32768", file, i, addr)
		}
		if prev, dup := seen[port]; dup {
			t.Errorf("%s: port %s also used by %s", file, port, prev)
		}
		seen[port] = file
	}
}
