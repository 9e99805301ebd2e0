package ports

import (
	"net"
	"strconv"
	"testing"
)

func TestFreeGivesDistinctListenablePortsBelow32768(t *testing.T) {
	ps, err := Free(5)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, p := range ps {
		if p >= 32768 || p < 1024 || seen[p] {
			t.Fatalf("port %d out of range or repeated in %v", p, ps)
		}
		seen[p] = true
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			t.Fatalf("port %d is not free: %v", p, err)
		}
		ln.Close()
	}
}

func TestEnvRange(t *testing.T) {
	t.Setenv(EnvRange, "23000-23009")
	p, err := Free(5)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range p {
		if x < 23000 || x > 23009 {
			t.Fatalf("port %d outside %s=23000-23009", x, EnvRange)
		}
	}
	t.Setenv(EnvRange, "nonsense")
	if lo, size := portRange(); lo != 20000 || size != 12000 {
		t.Fatalf("bad %s: range %d+%d, want the default", EnvRange, lo, size)
	}
}
