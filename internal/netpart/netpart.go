package netpart

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"zablab/internal/procs"
)

// prefix starts the name of every namespace this package makes; the test
// binary's pid follows it (see reapStale).
const prefix = "zlnp"

// hubHost is the last byte of the hub's address on the bridge.
const hubHost = 254

// cmdTimeout bounds one ip or tc command.
const cmdTimeout = 10 * time.Second

var seq atomic.Int32

// Net is n peer namespaces on one bridge; peers are numbered from 1.
type Net struct {
	name string // prefix, pid and a number per Net of this process
	n    int

	mu   sync.Mutex
	cuts map[[2]int]bool // from, to: to's port drops from's packets
}

// New makes the namespaces of n peers and the hub and deletes them when
// the test ends. It skips the test when it is not root or the machine
// cannot make network namespaces, and fails it on any later error.
func New(t testing.TB, n int) *Net {
	t.Helper()
	if n < 1 || n >= hubHost {
		t.Fatalf("netpart: %d peers; want 1 to %d", n, hubHost-1)
	}
	if os.Geteuid() != 0 {
		t.Skip("netpart: network namespaces need root; run the test as root")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skipf("netpart: no ip command (iproute2): %v", err)
	}
	reapStale()
	nt := &Net{name: fmt.Sprintf("%s%d-%d", prefix, os.Getpid(), seq.Add(1)), n: n, cuts: map[[2]int]bool{}}
	if out, err := run("ip", "netns", "add", nt.Hub()); err != nil {
		t.Skipf("netpart: cannot make a network namespace (ip netns add %s: %v: %s)", nt.Hub(), err, out)
	}
	t.Cleanup(func() {
		if err := nt.remove(); err != nil {
			t.Errorf("netpart: %v", err)
		}
	})
	if err := nt.build(); err != nil {
		t.Fatalf("netpart: %v", err)
	}
	return nt
}

// N is the number of peers.
func (nt *Net) N() int { return nt.n }

// Hub is the name of the namespace of the bridge and the test's clients.
func (nt *Net) Hub() string { return nt.name + "-hub" }

// Peer is the name of peer i's namespace.
func (nt *Net) Peer(i int) string { return fmt.Sprintf("%s-p%d", nt.name, i) }

// IP is peer i's address; it exists only in peer i's namespace.
func (nt *Net) IP(i int) string { return fmt.Sprintf("10.77.0.%d", i) }

// HubIP is the hub's address on the bridge, the source of client traffic.
func (nt *Net) HubIP() string { return fmt.Sprintf("10.77.0.%d", hubHost) }

// port is the hub's end of peer i's veth pair, a port of the bridge.
func port(i int) string { return fmt.Sprintf("p%d", i) }

// Command is a command that runs program inside peer i's namespace. ip
// netns exec execs the program, so the process's pid is the program's;
// start it with procs.Start, which ends it by that pid.
func (nt *Net) Command(i int, program string, args ...string) *exec.Cmd {
	return exec.Command("ip", append([]string{"netns", "exec", nt.Peer(i), program}, args...)...)
}

// build makes the bridge, the peers' namespaces and their links.
func (nt *Net) build() error {
	hub := nt.Hub()
	steps := [][]string{
		{"ip", "-n", hub, "link", "set", "lo", "up"},
		{"ip", "-n", hub, "link", "add", "br0", "type", "bridge"},
		{"ip", "-n", hub, "addr", "add", nt.HubIP() + "/24", "dev", "br0"},
		{"ip", "-n", hub, "link", "set", "br0", "up"},
	}
	if err := runAll(hub, steps); err != nil {
		return err
	}
	for i := 1; i <= nt.n; i++ {
		if err := nt.addPeer(i); err != nil {
			return err
		}
	}
	return nil
}

// addPeer makes peer i's namespace, its link to the bridge, its address
// and the queues on its bridge port that cuts use. The veth pair is made
// in the hub with its other end straight in the peer's namespace: it
// never exists in the host's.
func (nt *Net) addPeer(i int) error {
	hub, ns, p := nt.Hub(), nt.Peer(i), port(i)
	steps := [][]string{
		{"ip", "netns", "add", ns},
		{"ip", "-n", ns, "link", "set", "lo", "up"},
		{"ip", "-n", hub, "link", "add", p, "type", "veth", "peer", "name", "eth0", "netns", ns},
		{"ip", "-n", ns, "addr", "add", nt.IP(i) + "/24", "dev", "eth0"},
		{"ip", "-n", ns, "link", "set", "eth0", "up"},
		{"ip", "-n", hub, "link", "set", p, "master", "br0", "up"},
		{"tc", "-n", hub, "qdisc", "add", "dev", p, "root", "handle", "1:", "htb", "default", "1"},
		{"tc", "-n", hub, "class", "add", "dev", p, "parent", "1:", "classid", "1:1", "htb", "rate", "10gbit", "quantum", "60000"},
		{"tc", "-n", hub, "class", "add", "dev", p, "parent", "1:", "classid", "1:2", "htb", "rate", "10gbit", "quantum", "60000"},
		{"tc", "-n", hub, "qdisc", "add", "dev", p, "parent", "1:2", "handle", "2:", "pfifo", "limit", "0"},
	}
	return runAll(fmt.Sprintf("peer %d (%s)", i, ns), steps)
}

// remove deletes every namespace of nt; the links and queues go with them.
func (nt *Net) remove() error {
	var errs []error
	for i := 1; i <= nt.n; i++ {
		errs = append(errs, del(nt.Peer(i)))
	}
	errs = append(errs, del(nt.Hub()))
	return errors.Join(errs...)
}

// del deletes namespace ns; one that does not exist (never made) is no
// error.
func del(ns string) error {
	if _, err := os.Stat("/run/netns/" + ns); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if out, err := run("ip", "netns", "del", ns); err != nil {
		return fmt.Errorf("deleting namespace %s: %w: %s", ns, err, out)
	}
	return nil
}

// reapStale deletes namespaces of this package left by test binaries that
// died without running their cleanups (go test's timeout panic): those
// whose pid no longer runs. Others' namespaces are never touched.
func reapStale() {
	entries, err := os.ReadDir("/run/netns")
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() {
			continue
		}
		if _, err := os.Stat("/proc/" + pidText); errors.Is(err, os.ErrNotExist) {
			_ = del(e.Name())
		}
	}
}

// runAll runs the commands in order; the first failure names what.
func runAll(what string, steps [][]string) error {
	for _, s := range steps {
		if out, err := run(s[0], s[1:]...); err != nil {
			return fmt.Errorf("%s: %s: %w: %s", what, strings.Join(s, " "), err, out)
		}
	}
	return nil
}

// run runs one ip or tc command, bounded, and returns its output.
func run(name string, args ...string) (string, error) {
	out, err := procs.Run(exec.Command(name, args...), cmdTimeout)
	return strings.TrimSpace(string(out)), err
}
