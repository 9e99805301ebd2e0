package netpart

import (
	"errors"
	"fmt"
	"slices"
)

// Cut drops every packet from peer from to peer to, at to's bridge port:
// one direction only; to's packets still reach from.
func (nt *Net) Cut(from, to int) error {
	if err := nt.check(from, to); err != nil {
		return err
	}
	nt.mu.Lock()
	defer nt.mu.Unlock()
	if nt.cuts[[2]int{from, to}] {
		return nil
	}
	hub, p := nt.Hub(), port(to)
	out, err := run("tc", "-n", hub, "filter", "add", "dev", p, "parent", "1:", "protocol", "ip",
		"prio", "1", "u32", "match", "ip", "src", nt.IP(from)+"/32", "classid", "1:2")
	if err != nil {
		return fmt.Errorf("cutting peer %d (%s) -> peer %d (%s): %w: %s", from, nt.Peer(from), to, nt.Peer(to), err, out)
	}
	nt.cuts[[2]int{from, to}] = true
	return nil
}

// Isolate cuts peer i from every other peer, both ways. The hub, and so
// the test's clients, still reach it.
func (nt *Net) Isolate(i int) error {
	var errs []error
	for j := 1; j <= nt.n; j++ {
		if j != i {
			errs = append(errs, nt.Cut(i, j), nt.Cut(j, i))
		}
	}
	return errors.Join(errs...)
}

// Heal removes every cut.
func (nt *Net) Heal() error {
	nt.mu.Lock()
	defer nt.mu.Unlock()
	var ports []int
	for c := range nt.cuts {
		if !slices.Contains(ports, c[1]) {
			ports = append(ports, c[1])
		}
	}
	var errs []error
	for _, to := range ports {
		out, err := run("tc", "-n", nt.Hub(), "filter", "del", "dev", port(to), "parent", "1:")
		if err != nil {
			errs = append(errs, fmt.Errorf("healing the port of peer %d (%s): %w: %s", to, nt.Peer(to), err, out))
			continue
		}
		for c := range nt.cuts {
			if c[1] == to {
				delete(nt.cuts, c)
			}
		}
	}
	return errors.Join(errs...)
}

// Cuts lists the cuts in place as from->to pairs.
func (nt *Net) Cuts() [][2]int {
	nt.mu.Lock()
	defer nt.mu.Unlock()
	var out [][2]int
	for c := range nt.cuts {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b [2]int) int { return (a[0]-b[0])*1000 + a[1] - b[1] })
	return out
}

func (nt *Net) check(peers ...int) error {
	for _, i := range peers {
		if i < 1 || i > nt.n {
			return fmt.Errorf("netpart %s: no peer %d (have 1 to %d)", nt.name, i, nt.n)
		}
	}
	return nil
}
