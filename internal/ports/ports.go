package ports

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// EnvRange names the environment variable with a narrower port range.
const EnvRange = "MWZK_PORTS"

// portRange is [lo, lo+size) from MWZK_PORTS, else 20000-31999. A bad
// value is ignored: the default range works, only less isolated.
func portRange() (lo, size int) {
	a, b, ok := strings.Cut(os.Getenv(EnvRange), "-")
	l, err1 := strconv.Atoi(a)
	h, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || l < 1024 || h > 32767 || h <= l {
		return 20000, 12000
	}
	return l, h - l + 1
}

// ErrNoPorts says no free ports were found.
var ErrNoPorts = errors.New("ports: no free ports below 32768 on 127.0.0.1")

// Free returns n distinct ports below 32768 that were free a moment ago.
// They stay below 32768 because Linux hands out 32768 and up to outgoing
// connections: a listener up there can find its port taken by the time
// the peer starts.
//
// MWZK_PORTS=lo-hi (for example 20000-20999) narrows the range: mwzk-grade
// gives each submission it grades at once a range of its own.
func Free(n int) ([]int, error) {
	lo, size := portRange()
	seen := map[int]bool{}
	var out []int
	for tries := 0; len(out) < n && tries < 1000; tries++ {
		port := lo + rand.IntN(size)
		if seen[port] {
			continue
		}
		seen[port] = true
		if ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			ln.Close()
			out = append(out, port)
		}
	}
	if len(out) < n {
		return nil, ErrNoPorts
	}
	return out, nil
}
