package netpart

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"
)

// quiet is how long a datagram may take before a test calls it dropped.
const quiet = 300 * time.Millisecond

// hostState is the host namespace's links and addresses.
func hostState(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("ip", "-o", "addr").CombinedOutput()
	if err != nil {
		t.Fatalf("ip -o addr: %v: %s", err, out)
	}
	links, err := exec.Command("ip", "-o", "link").CombinedOutput()
	if err != nil {
		t.Fatalf("ip -o link: %v: %s", err, links)
	}
	return string(out) + string(links)
}

// udpListen opens a UDP socket on peer i's address inside its namespace.
func udpListen(t *testing.T, nt *Net, i int) *net.UDPConn {
	t.Helper()
	var c *net.UDPConn
	err := nt.InPeer(i, func() error {
		var err error
		c, err = net.ListenUDP("udp", &net.UDPAddr{IP: net.ParseIP(nt.IP(i)), Port: 9999})
		return err
	})
	if err != nil {
		t.Fatalf("listen on peer %d: %v", i, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// reaches reports whether a datagram from peer a arrives at peer b.
func reaches(t *testing.T, nt *Net, a int, to *net.UDPConn) bool {
	t.Helper()
	msg := fmt.Sprintf("from %d at %d", a, time.Now().UnixNano())
	err := nt.InPeer(a, func() error {
		c, err := net.Dial("udp", to.LocalAddr().String())
		if err != nil {
			return err
		}
		defer c.Close()
		_, err = c.Write([]byte(msg))
		return err
	})
	if err != nil {
		t.Fatalf("send from peer %d: %v", a, err)
	}
	buf := make([]byte, 128)
	to.SetReadDeadline(time.Now().Add(quiet))
	for range 16 { // older datagrams may be queued; bounded
		n, err := to.Read(buf)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return false
		}
		if err != nil {
			t.Fatal(err)
		}
		if string(buf[:n]) == msg {
			return true
		}
	}
	return false
}

func TestPartitionHarness(t *testing.T) {
	before := hostState(t)
	nt := New(t, 3)
	if after := hostState(t); after != before {
		t.Errorf("the host's namespace changed:\nbefore\n%s\nafter\n%s", before, after)
	}
	conns := map[int]*net.UDPConn{1: udpListen(t, nt, 1), 2: udpListen(t, nt, 2), 3: udpListen(t, nt, 3)}
	expect := func(when string, want map[[2]int]bool) {
		t.Helper()
		for a := 1; a <= 3; a++ {
			for b := 1; b <= 3; b++ {
				if a == b {
					continue
				}
				if got := reaches(t, nt, a, conns[b]); got != !want[[2]int{a, b}] {
					t.Errorf("%s: peer %d reaches peer %d: %v, want %v", when, a, b, got, !want[[2]int{a, b}])
				}
			}
		}
	}
	expect("at the start", nil)
	must(t, nt.Cut(1, 2))
	expect("after Cut(1, 2)", map[[2]int]bool{{1, 2}: true})
	must(t, nt.Heal())
	must(t, nt.Isolate(3))
	expect("after Isolate(3)", map[[2]int]bool{{1, 3}: true, {2, 3}: true, {3, 1}: true, {3, 2}: true})
	hubReachesAll(t, nt)
	must(t, nt.Heal())
	expect("after Heal", nil)
}

// hubReachesAll dials a TCP listener in every peer from the hub.
func hubReachesAll(t *testing.T, nt *Net) {
	t.Helper()
	for i := 1; i <= 3; i++ {
		var ln net.Listener
		must(t, nt.InPeer(i, func() error {
			var err error
			ln, err = net.Listen("tcp", nt.IP(i)+":7777")
			return err
		}))
		c, err := nt.Dial("tcp", ln.Addr().String(), 2*time.Second)
		if err != nil {
			t.Errorf("the hub does not reach isolated peer %d: %v", i, err)
		} else {
			c.Close()
		}
		ln.Close()
	}
}

// TestPartitionCleanup checks that a Net's namespaces are gone after its
// test, also when the test failed.
func TestPartitionCleanup(t *testing.T) {
	var names []string
	t.Run("inner", func(t *testing.T) {
		nt := New(t, 2)
		names = []string{nt.Hub(), nt.Peer(1), nt.Peer(2)}
		must(t, nt.Isolate(1))
	})
	for _, ns := range names {
		if _, err := os.Stat("/run/netns/" + ns); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("namespace %s still there after its test: %v", ns, err)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
