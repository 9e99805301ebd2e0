package transport

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"maps"
	"math/rand/v2"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"

	"zablab/zab/core"
)

func TestTCPExchange(t *testing.T) {
	noLeaks(t)
	c := newCluster(t, 3, nil)
	const n = 300
	for from, tr := range c.nodes {
		for to := range c.nodes {
			for i := uint64(1); from != to && i <= n; i++ {
				tr.Send(core.Message{Type: core.MsgCommit, From: from, To: to, Seq: i})
			}
		}
	}
	// No connection failed, so nothing is lost, and each sender's messages
	// arrive in the order it sent them.
	for id, tr := range c.nodes {
		next := map[uint64]uint64{}
		for range 2 * n {
			m := recvOne(t, tr)
			if m.To != id || m.Seq != next[m.From]+1 {
				t.Fatalf("peer %d received %v seq %d after seq %d", id, m, m.Seq, next[m.From])
			}
			next[m.From] = m.Seq
		}
	}

	big := core.Message{Type: core.MsgNewLeader, From: 3, To: 1, Epoch: 2, Mode: core.SyncSnap,
		Snapshot: &core.Snapshot{Data: bytes.Repeat([]byte("snapshot"), 512<<10)}, Entries: entries(2, 1000, 1024)}
	c.nodes[3].Send(big)
	if got := recvOne(t, c.nodes[1]); !cmp.Equal(big, got, bytesEqual) {
		t.Fatalf("a 5 MiB NEWLEADER arrived changed: %v", got)
	}
	waitFor(t, "every message counted as sent", func() bool {
		var sent, received uint64
		for _, tr := range c.nodes {
			s := tr.Stats()
			sent, received = sent+s.Sent, received+s.Received
		}
		return sent == 6*n+1 && received == 6*n+1
	})
}

// recvOne returns the next message from a peer, passing over the local
// reports of lost connections (see TestTCPReportsLostConnection).
func recvOne(t *testing.T, tr Transport) core.Message {
	t.Helper()
	for {
		select {
		case m, ok := <-tr.Recv():
			if !ok {
				t.Fatal("Recv closed")
			}
			if m.Type != core.MsgPeerLost {
				return m
			}
		case <-time.After(waitTimeout):
			t.Fatal("nothing received")
			return core.Message{}
		}
	}
}

// allPairs checks that every peer reaches every other.
func (c *cluster) allPairs() {
	c.t.Helper()
	for a, ta := range c.nodes {
		for b, tb := range c.nodes {
			if a != b {
				deliver(c.t, ta, a, tb, b)
			}
		}
	}
}

func TestTCPPeerRestart(t *testing.T) {
	noLeaks(t)
	c := newCluster(t, 3, nil)
	c.allPairs()
	// Peer 1 only dials, 3 only accepts, 2 does both.
	for _, id := range []uint64{2, 1, 3} {
		c.restart(id)
		c.allPairs()
	}
	for id, tr := range c.nodes {
		// Every peer saw each of the other two restart once, and the last
		// restarted peer saw none (its counters are new).
		if s := tr.Stats(); id != 3 && s.Reconnects < 1 {
			t.Errorf("peer %d: Reconnects = %d, want at least 1", id, s.Reconnects)
		}
	}
}

func TestTCPRejectsGarbage(t *testing.T) {
	noLeaks(t)
	c := newCluster(t, 3, nil)
	c.allPairs()
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 1000)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	badVersion := appendHandshake(nil, handshake{from: 1, to: 3})
	badVersion[headerLen+4] = 9
	for _, tc := range []struct {
		name   string
		target uint64
		bytes  []byte
		says   string
	}{
		{"http request", 3, []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), "too large"},
		{"random bytes", 3, random, "transport:"},
		{"bad magic", 3, frame([]byte("ZABX\x01\x01\x03")), "bad magic"},
		{"bad version", 3, badVersion, "version 9"},
		{"unknown peer", 3, appendHandshake(nil, handshake{from: 9, to: 3}), "unknown peer 9"},
		{"higher id dials", 2, appendHandshake(nil, handshake{from: 3, to: 2}), "the lower id dials"},
		{"meant for another peer", 3, appendHandshake(nil, handshake{from: 1, to: 2}), "dialed 2"},
		{"message before handshake", 3, AppendMessage(nil, &core.Message{Type: core.MsgPing, From: 1, To: 3}), "bad magic"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, r := rawPeer(t, c.addrs[tc.target], 0, 0)
			if _, err := conn.Write(tc.bytes); err != nil {
				t.Fatal(err)
			}
			closedByPeer(t, r)
			fields := logrus.Fields{"remote": conn.LocalAddr().String(), logrus.ErrorKey: nil}
			waitFor(t, "the rejection logged", func() bool {
				return logged(c.hooks[tc.target], logrus.WarnLevel, "rejecting connection", fields)
			})
			for _, e := range c.hooks[tc.target].AllEntries() {
				if e.Data["remote"] == conn.LocalAddr().String() {
					if err, _ := e.Data[logrus.ErrorKey].(error); err == nil || !strings.Contains(err.Error(), tc.says) {
						t.Errorf("logged %v, want it to say %q", err, tc.says)
					}
				}
			}
		})
	}
	if s := c.nodes[3].Stats(); s.Rejected < 7 {
		t.Errorf("peer 3: Rejected = %d, want at least 7", s.Rejected)
	}
	c.allPairs()
}

// lonePeer starts peer 2 of an ensemble whose peer 1 never shows up, so a
// test can play peer 1 with a raw connection.
func lonePeer(t *testing.T, maxFrame int) (*TCP, string, *test.Hook) {
	ln := listen(t)
	log, hook := testLogger(t)
	tr, err := NewTCP(TCPConfig{ID: 2, Listener: ln, MaxFrame: maxFrame, Logger: log,
		Peers: map[uint64]string{1: "127.0.0.1:9", 2: ln.Addr().String()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr, ln.Addr().String(), hook
}

func TestTCPBadFrameClosesConnection(t *testing.T) {
	noLeaks(t)
	tr, addr, hook := lonePeer(t, 1024)
	version2 := AppendMessage(nil, &core.Message{Type: core.MsgPing, From: 1, To: 2})
	version2[headerLen] = 3
	for i, tc := range []struct {
		name  string
		bytes []byte
		says  string
	}{
		{"oversized header", binary.BigEndian.AppendUint32(nil, 1<<20), "frame too large"},
		{"oversized header above MaxFrame", []byte{0xff, 0xff, 0xff, 0xff}, "frame too large"},
		{"oversized message", AppendMessage(nil, &core.Message{Type: core.MsgPropose, From: 1, To: 2, Entries: entries(1, 1, 2000)}), "frame too large"},
		{"unknown type", frame([]byte{Version, 99, 0}), "unknown message type 99"},
		{"newer version", version2, "version 3"},
		{"wrong sender", AppendMessage(nil, &core.Message{Type: core.MsgPing, From: 3, To: 2}), "from 3 to 2"},
		{"wrong recipient", AppendMessage(nil, &core.Message{Type: core.MsgPing, From: 1, To: 5}), "from 1 to 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, r := rawPeer(t, addr, 1, 2)
			if _, err := conn.Write(tc.bytes); err != nil {
				t.Fatal(err)
			}
			closedByPeer(t, r)
			waitFor(t, "the bad frame logged", func() bool {
				for _, e := range hook.AllEntries() {
					err, _ := e.Data[logrus.ErrorKey].(error)
					if e.Level == logrus.ErrorLevel && e.Data["peer"] == uint64(1) &&
						e.Data["remote"] == conn.LocalAddr().String() && err != nil && strings.Contains(err.Error(), tc.says) {
						return true
					}
				}
				return false
			})
			if s := tr.Stats(); s.Rejected != uint64(i+1) {
				t.Errorf("Rejected = %d, want %d", s.Rejected, i+1)
			}
		})
	}

	// The peer still works, both ways.
	conn, r := rawPeer(t, addr, 1, 2)
	if _, err := conn.Write(AppendMessage(nil, &core.Message{Type: core.MsgAck, From: 1, To: 2, Seq: 77})); err != nil {
		t.Fatal(err)
	}
	if m := recvOne(t, tr); m.Seq != 77 {
		t.Fatalf("received %v, want the ACK", m)
	}
	tr.Send(core.Message{Type: core.MsgPing, From: 2, To: 1, Seq: 78})
	if m, err := ReadMessage(r, 0); err != nil || m.Seq != 78 {
		t.Fatalf("raw peer read %v, %v; want the PING", m, err)
	}
}

func TestTCPNewerConnectionWins(t *testing.T) {
	noLeaks(t)
	tr, addr, _ := lonePeer(t, 0)
	_, old := rawPeer(t, addr, 1, 2)
	_, r := rawPeer(t, addr, 1, 2)
	closedByPeer(t, old)
	tr.Send(core.Message{Type: core.MsgPing, From: 2, To: 1, Seq: 5})
	if m, err := ReadMessage(r, 0); err != nil || m.Seq != 5 {
		t.Fatalf("newer connection read %v, %v; want the PING", m, err)
	}
}

// A connection that fails is reported on Recv as a local MsgPeerLost, so
// a follower whose leader's process died hears it at once; one replaced by
// a newer connection from the same peer is not.
func TestTCPReportsLostConnection(t *testing.T) {
	noLeaks(t)
	tr, addr, _ := lonePeer(t, 0)
	_, old := rawPeer(t, addr, 1, 2)
	conn, _ := rawPeer(t, addr, 1, 2)
	closedByPeer(t, old)
	if _, err := conn.Write(AppendMessage(nil, &core.Message{Type: core.MsgAck, From: 1, To: 2, Seq: 7})); err != nil {
		t.Fatal(err)
	}
	if m := <-tr.Recv(); m.Type != core.MsgAck || m.Seq != 7 {
		t.Fatalf("received %v first, want the ACK: a replaced connection is no lost peer", m)
	}
	conn.Close() // the peer's process dies
	select {
	case m := <-tr.Recv():
		if m.Type != core.MsgPeerLost || m.From != 1 || m.To != 2 {
			t.Fatalf("received %v, want PEERLOST 1→2", m)
		}
	case <-time.After(waitTimeout):
		t.Fatal("no PEERLOST after the peer closed its connection")
	}
}

// sendAll sends every message from a goroutine and fails the test if
// that does not finish: Send must never block.
func sendAll(t *testing.T, tr Transport, ms func(yield func(core.Message) bool)) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m := range ms {
			tr.Send(m)
		}
	}()
	select {
	case <-done:
	case <-time.After(waitTimeout):
		t.Fatal("Send blocked")
	}
}

func repeat(n int, m core.Message) func(func(core.Message) bool) {
	return func(yield func(core.Message) bool) {
		for i := range n {
			m.Seq = uint64(i)
			if !yield(m) {
				return
			}
		}
	}
}

func TestTCPFullQueueDropsWhilePeerIsDown(t *testing.T) {
	noLeaks(t)
	down := listen(t)
	down.Close() // nothing listens there now: every dial is refused
	self := listen(t)
	tr, err := NewTCP(TCPConfig{ID: 1, Listener: self, QueueLen: 8,
		Peers: map[uint64]string{2: down.Addr().String()}})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	sendAll(t, tr, repeat(1000, core.Message{Type: core.MsgPing, From: 1, To: 2}))
	if s := tr.Stats(); s.Dropped != 992 {
		t.Errorf("Dropped = %d, want 992", s.Dropped)
	}
	if n := len(tr.peers[2].queue); n != 8 {
		t.Errorf("queue holds %d messages, want 8", n)
	}
	tr.Send(core.Message{Type: core.MsgPing, From: 1, To: 7})
	if s := tr.Stats(); s.Dropped != 993 {
		t.Errorf("after a message to an unknown peer, Dropped = %d, want 993", s.Dropped)
	}
}

func TestTCPFullQueueDropsWhenPeerStopsReading(t *testing.T) {
	noLeaks(t)
	stuck := listen(t)
	defer stuck.Close()
	stuck.(*net.TCPListener).SetDeadline(time.Now().Add(waitTimeout))
	tr, err := NewTCP(TCPConfig{ID: 1, Listener: listen(t), QueueLen: 16,
		Peers: map[uint64]string{2: stuck.Addr().String()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	// Play peer 2: answer the handshake, then never read again.
	conn, err := stuck.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(waitTimeout))
	r := bufio.NewReader(conn)
	if h, err := readHandshake(r); err != nil || h != (handshake{1, 2}) {
		t.Fatalf("handshake = %v, %v", h, err)
	}
	conn.Write(appendHandshake(nil, handshake{from: 2, to: 1}))

	// Feed the writer until it blocks in a write: the socket buffers are
	// full, and from now on nothing leaves the queue.
	big := core.Message{Type: core.MsgPropose, From: 1, To: 2, Entries: entries(1, 1, 64<<10)}
	queue := tr.peers[2].queue
	waitFor(t, "the writer to block on the full socket", func() bool {
		for i := 0; i < cap(queue) && len(queue) < cap(queue); i++ {
			tr.Send(big)
		}
		return writerBlocked()
	})
	before, queued := tr.Stats(), len(queue)
	const n = 1000
	sendAll(t, tr, repeat(n, big))
	s := tr.Stats()
	t.Logf("peer not reading: %+v before, %+v after %d more", before, s, n)
	if want := before.Dropped + n - uint64(cap(queue)-queued); s.Dropped != want {
		t.Errorf("Dropped = %d, want %d: everything that did not fit the queue", s.Dropped, want)
	}
	if len(queue) != cap(queue) || s.Sent != before.Sent {
		t.Errorf("queue holds %d of %d, Sent %d → %d: the writer was not blocked", len(queue), cap(queue), before.Sent, s.Sent)
	}
	// The writer is blocked in a write: Close must still return.
	closed := make(chan error)
	go func() { closed <- tr.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("Close blocked behind a stuck write")
	}
}

// writerBlocked reports whether a connection's writer waits for room in
// the socket.
func writerBlocked() bool {
	buf := make([]byte, 1<<20)
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "(*peer).writeBatch") && strings.Contains(g, "waitWrite") {
			return true
		}
	}
	return false
}

func TestTCPCloseLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	gone := listen(t)
	gone.Close()
	c := newCluster(t, 3, func(cfg *TCPConfig) {
		// Peer 4 never answers, so every dialer of it sits in its backoff;
		// and Close must not wait for a handshake that times out in an hour.
		peers := maps.Clone(cfg.Peers)
		peers[4] = gone.Addr().String()
		cfg.Peers = peers
		cfg.HandshakeTimeout = time.Hour
	})
	c.allPairs()
	// A stranger that connects and says nothing holds a goroutine of peer 3
	// in the handshake.
	rawPeer(t, c.addrs[3], 0, 0)
	waitFor(t, "peer 3 to accept the stranger", func() bool {
		c.nodes[3].mu.Lock()
		defer c.nodes[3].mu.Unlock()
		return len(c.nodes[3].conns) >= 3
	})
	for id, tr := range c.nodes {
		if err := tr.Close(); err != nil {
			t.Errorf("peer %d: Close: %v", id, err)
		}
		if err := tr.Close(); err != nil {
			t.Errorf("peer %d: second Close: %v", id, err)
		}
		dropped := tr.Stats().Dropped
		tr.Send(core.Message{Type: core.MsgPing, From: id, To: id%3 + 1})
		if d := tr.Stats().Dropped; d != dropped+1 {
			t.Errorf("peer %d: Send after Close: Dropped %d → %d, want one more", id, dropped, d)
		}
		for range tr.Recv() {
			// Drain what arrived before Close; the loop ends because Close
			// closed the channel.
		}
	}
	waitGoroutines(t, before)
}

func TestTCPConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  TCPConfig
		says string
	}{
		{"empty peer address", TCPConfig{ID: 1, Listen: "127.0.0.1:0", Peers: map[uint64]string{2: ""}}, "Peers[2]"},
		{"nowhere to listen", TCPConfig{ID: 1, Peers: map[uint64]string{2: "127.0.0.1:1"}}, "Listen"},
		{"negative queue", TCPConfig{ID: 1, Listen: "127.0.0.1:0", QueueLen: -1}, "QueueLen"},
		{"frame limit too big", TCPConfig{ID: 1, Listen: "127.0.0.1:0", MaxFrame: MaxFrame + 1}, "MaxFrame"},
		{"negative backoff", TCPConfig{ID: 1, Listen: "127.0.0.1:0", MinBackoff: -1}, "MinBackoff"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewTCP(tc.cfg)
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("NewTCP: %v, want ErrConfig naming %s", err, tc.says)
			}
		})
	}
	if _, err := NewTCP(TCPConfig{ID: 1, Listen: "127.0.0.1:999999"}); err == nil {
		t.Error("NewTCP listened on port 999999")
	}
}

func TestTCPListenFromPeers(t *testing.T) {
	noLeaks(t)
	tr, err := NewTCP(TCPConfig{ID: 1, Peers: map[uint64]string{1: "127.0.0.1:0", 2: "127.0.0.1:1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if a := tr.Addr().(*net.TCPAddr); a.Port == 0 || !a.IP.IsLoopback() {
		t.Errorf("Addr() = %v, want the port the kernel chose on 127.0.0.1", a)
	}
}

// BenchmarkTCPPing measures small messages between two peers over
// loopback, with up to window of them in flight: the case batching is for.
func BenchmarkTCPPing(b *testing.B) {
	const window = 1024
	lns := []net.Listener{nil, listenB(b), listenB(b)}
	peers := map[uint64]string{1: lns[1].Addr().String(), 2: lns[2].Addr().String()}
	var trs [3]*TCP
	for id := 1; id <= 2; id++ {
		tr, err := NewTCP(TCPConfig{ID: uint64(id), Listener: lns[id], Peers: peers})
		if err != nil {
			b.Fatal(err)
		}
		defer tr.Close()
		trs[id] = tr
	}
	m := core.Message{Type: core.MsgAck, From: 1, To: 2, Epoch: 3, Zxid: core.NewZxid(3, 1)}
	received := 0
	recv := func() {
		select {
		case <-trs[2].Recv():
			received++
		case <-time.After(waitTimeout):
			b.Fatalf("message lost: %+v", trs[1].Stats())
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for i-received >= window {
			recv()
		}
		trs[1].Send(m)
	}
	for received < b.N {
		recv()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

func listenB(b *testing.B) net.Listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	return ln
}
