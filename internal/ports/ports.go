// Package ports finds free TCP ports on 127.0.0.1 for peers started by
// tests and benchmarks.
package ports

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
)

// ErrNoPorts says no free ports were found.
var ErrNoPorts = errors.New("ports: no free ports below 32768 on 127.0.0.1")

// Free returns n distinct ports below 32768 that were free a moment ago.
// They stay below 32768 because Linux hands out 32768 and up to outgoing
// connections: a listener up there can find its port taken by the time
// the peer starts.
func Free(n int) ([]int, error) {
	seen := map[int]bool{}
	var out []int
	for tries := 0; len(out) < n && tries < 1000; tries++ {
		port := 20000 + rand.IntN(12000)
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
