package transport

import (
	"bufio"
	"fmt"
	"net"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"

	"zablab/zab/core"
)

// waitTimeout bounds every wait of the tests: generous, because -race on
// two cores is slow, and only reached when something is broken.
const waitTimeout = 15 * time.Second

// waitFor polls cond until it holds or the deadline passes. Tests wait on
// conditions, never on a guessed duration.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}

// noLeaks fails the test if, after its cleanups (registered later, so run
// earlier), more goroutines run than before it started.
func noLeaks(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() { waitGoroutines(t, before) })
}

// waitGoroutines waits until at most before goroutines run, and fails
// with every goroutine's stack if that does not happen. It waits because
// a goroutine that signalled its end still takes a moment to exit.
func waitGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		<-tick.C
	}
}

// testLogger records every entry; on failure the test prints them.
func testLogger(t *testing.T) (*logrus.Logger, *test.Hook) {
	l, hook := test.NewNullLogger()
	l.SetLevel(logrus.DebugLevel)
	t.Cleanup(func() {
		if t.Failed() {
			for _, e := range hook.AllEntries() {
				t.Logf("%s %s %v", e.Level, e.Message, e.Data)
			}
		}
	})
	return l, hook
}

// logged reports whether an entry at level whose message contains msg and
// that has every given field (nil value: any value) was logged.
func logged(hook *test.Hook, level logrus.Level, msg string, fields logrus.Fields) bool {
	for _, e := range hook.AllEntries() {
		if e.Level != level || !strings.Contains(e.Message, msg) {
			continue
		}
		ok := true
		for k, v := range fields {
			got, has := e.Data[k]
			ok = ok && has && (v == nil || fmt.Sprint(got) == fmt.Sprint(v))
		}
		if ok {
			return true
		}
	}
	return false
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// cluster is an ensemble of TCP transports on 127.0.0.1.
type cluster struct {
	t     *testing.T
	addrs map[uint64]string
	nodes map[uint64]*TCP
	hooks map[uint64]*test.Hook
	cfg   func(*TCPConfig)
}

// newCluster starts peers 1..n on ports the kernel chose. cfg, if not nil,
// adjusts each configuration.
func newCluster(t *testing.T, n int, cfg func(*TCPConfig)) *cluster {
	c := &cluster{t: t, addrs: map[uint64]string{}, nodes: map[uint64]*TCP{}, hooks: map[uint64]*test.Hook{}, cfg: cfg}
	lns := map[uint64]net.Listener{}
	for id := uint64(1); id <= uint64(n); id++ {
		lns[id] = listen(t)
		c.addrs[id] = lns[id].Addr().String()
	}
	for id, ln := range lns {
		c.start(id, ln)
	}
	return c
}

func (c *cluster) start(id uint64, ln net.Listener) *TCP {
	c.t.Helper()
	log, hook := testLogger(c.t)
	cfg := TCPConfig{ID: id, Listener: ln, Peers: c.addrs, Logger: log.WithField("self", id),
		MinBackoff: time.Millisecond, MaxBackoff: 20 * time.Millisecond}
	if c.cfg != nil {
		c.cfg(&cfg)
	}
	tr, err := NewTCP(cfg)
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { tr.Close() })
	c.nodes[id], c.hooks[id] = tr, hook
	return tr
}

// restart closes peer id and starts it again on the same address.
func (c *cluster) restart(id uint64) {
	c.t.Helper()
	if err := c.nodes[id].Close(); err != nil {
		c.t.Fatal(err)
	}
	ln, err := net.Listen("tcp", c.addrs[id])
	if err != nil {
		c.t.Fatalf("listen again on %s: %v", c.addrs[id], err)
	}
	c.start(id, ln)
}

var nonce atomic.Uint64

// deliver sends a fresh message from → to until it arrives: after a
// restart the first ones may die with the old connection, which is the
// transport's right.
func deliver(t *testing.T, from Transport, fromID uint64, to Transport, toID uint64) {
	t.Helper()
	n := nonce.Add(1)
	m := core.Message{Type: core.MsgPing, From: fromID, To: toID, Seq: n}
	deadline := time.After(waitTimeout)
	resend := time.NewTicker(20 * time.Millisecond)
	defer resend.Stop()
	from.Send(m)
	for {
		select {
		case got, ok := <-to.Recv():
			if !ok {
				t.Fatalf("%d→%d: Recv closed", fromID, toID)
			}
			if got.Seq == n && got.From == fromID {
				return
			}
		case <-resend.C:
			from.Send(m)
		case <-deadline:
			t.Fatalf("%d→%d: message never arrived", fromID, toID)
		}
	}
}

// rawPeer dials addr and, if as is not zero, handshakes as peer as.
func rawPeer(t *testing.T, addr string, as, to uint64) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(waitTimeout))
	r := bufio.NewReader(c)
	if as == 0 {
		return c, r
	}
	if _, err := c.Write(appendHandshake(nil, handshake{from: as, to: to})); err != nil {
		t.Fatal(err)
	}
	h, err := readHandshake(r)
	if err != nil || h != (handshake{from: to, to: as}) {
		t.Fatalf("handshake answer = %+v, %v", h, err)
	}
	return c, r
}

// closedByPeer waits until the other side closes c.
func closedByPeer(t *testing.T, r *bufio.Reader) {
	t.Helper()
	buf := make([]byte, 512)
	for {
		if _, err := r.Read(buf); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatalf("connection still open after %v", waitTimeout)
			}
			return
		}
	}
}
