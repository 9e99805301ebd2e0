package server

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"zablab/internal/wait"
	mw "zablab/mwzookeeper"
	"zablab/mwzookeeper/wire"
)

// staleFake is the fake with ZooKeeper's read-only mode: it answers reads
// from its state while it does not serve.
type staleFake struct{ *fake }

func (f staleFake) ReadStale(req *mw.Request) *mw.Response {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.apply(req)
}

// connectAhead sends a connect request of a new session (id 0) whose client
// has seen zxid seen, read-only if ro, and returns the answer's body, or
// nil when the server closed the connection without one.
func connectAhead(t *testing.T, s *Server, seen int64, ro bool) []byte {
	t.Helper()
	r := dialRaw(t, s.Addr())
	b := be64(be32(nil, 0), seen) // protocol version, lastZxidSeen
	b = be64(be32(b, 10000), 0)   // timeout, session 0
	b = append(be32(b, 16), make([]byte, 16)...)
	if ro {
		b = append(b, 1)
	}
	r.frame(b)
	body, err := wire.ReadFrame(r.br, nil, wire.MaxFrame)
	if err != nil {
		return nil
	}
	return body
}

// TestReadOnlyNewSessionAheadIsRefused (a review's failing test): a
// read-only client that has seen zxid 0x100 got a session from a replica
// cut off from its quorum that applied only up to 0x5, where ZooKeeper's
// read-only server refuses it as any server does: its reads there would
// show older state than it already read.
func TestReadOnlyNewSessionAheadIsRefused(t *testing.T) {
	f := newFake()
	f.noServe, f.zxid = true, 5
	s := startServer(t, staleFake{f}, testProps+"readonlymode.enabled=true\n")
	wait.For(t, "read-only mode", 10*time.Second, s.isReadOnly)
	if body := connectAhead(t, s, 0x100, true); body != nil {
		t.Fatalf("a read-only session for a client that has seen zxid 0x100 was granted by a replica at 0x5: connect response %x", body)
	}
	if body := connectAhead(t, s, 5, true); body == nil {
		t.Fatalf("a read-only client that has seen only this replica's zxid was refused")
	}
}

// countingFake counts the calls of Stats, where behind reads the zxid.
type countingFake struct {
	*fake
	stats atomic.Int32
}

func (f *countingFake) Stats() mw.Stats {
	f.stats.Add(1)
	return f.fake.Stats()
}

// TestNewSessionWaitsForTheReplicaToCatchUp: a client ahead of a replica
// (a follower catching up after an election) is asked again for a while,
// as a reconnect is, rather than closed at once, which would cost it its
// reconnect back-off; once the replica has the zxid, it gets its session.
func TestNewSessionWaitsForTheReplicaToCatchUp(t *testing.T) {
	f := &countingFake{fake: newFake()}
	f.zxid = 5
	s := startServer(t, f, testProps)
	got := make(chan []byte, 1)
	go func() { got <- connectAhead(t, s, 9, false) }()
	wait.For(t, "the handshake to look at the replica's zxid", 10*time.Second, func() bool { return f.stats.Load() > 0 })
	f.mu.Lock()
	f.zxid = 9 // caught up
	f.mu.Unlock()
	if body := <-got; body == nil {
		t.Fatalf("a client one write ahead of a replica that caught up during its handshake was refused")
	}
}

// TestNewSessionAheadOutlivesALeaderChange (a review's failing test): the
// check of a client ahead had a retry loop of its own, which did not
// start its leaderWait over at a leader change as the handshake's does
// ("the replica may be behind it for a moment again"): a leader change at
// ~0.4 s, the replica caught up ~0.7 s after it, and the client was
// refused at 1 s. The check is now a ConnectionLoss in the handshake's
// one loop.
func TestNewSessionAheadOutlivesALeaderChange(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	logger.SetLevel(logrus.DebugLevel)
	f := &countingFake{fake: newFake()}
	f.zxid = 5
	s := startServerLogged(t, f, testProps, logger)
	got := make(chan []byte, 1)
	var ended atomic.Bool
	go func() { b := connectAhead(t, s, 9, false); ended.Store(true); got <- b }()
	// Each poll of Stats is at least retryPause (10 ms) after the last.
	wait.For(t, "40 polls of the replica's zxid", 10*time.Second, func() bool { return f.stats.Load() >= 40 })
	s.Host().Serving(false) // a leader change
	s.Host().Serving(true)
	wait.For(t, "110 polls (>= 1.09 s) or the answer", 10*time.Second, func() bool { return f.stats.Load() >= 110 || ended.Load() })
	f.mu.Lock()
	f.zxid = 9 // caught up with the new leader
	f.mu.Unlock()
	if body := <-got; body == nil {
		for _, e := range hook.AllEntries() {
			if strings.Contains(e.Message, "refused") {
				t.Logf("log: %s", e.Message)
			}
		}
		t.Fatalf("a new session ahead was refused after %d polls, <1 s after a leader change (a reconnect gets leaderWait again)", f.stats.Load())
	}
}
