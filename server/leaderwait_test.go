package server

import (
	"encoding/binary"
	"testing"
	"time"

	"zablab/internal/wait"
	mw "zablab/mwzookeeper"
)

// A handshake that arrives while the replica has no leader waits for one
// (up to leaderWait) instead of being closed at once, which would cost the
// client its reconnect back-off (a second for go-zookeeper); a repeated
// Serving(false) meanwhile does not close it.
func TestHandshakeWaitsForALeader(t *testing.T) {
	s := startServer(t, newFake(), testProps)
	s.Host().Serving(false)
	r := dialRaw(t, s.Addr())
	r.sendConnect(0, make([]byte, 16), 1000, 0)
	wait.For(t, "the handshake to wait for a leader", 10*time.Second, func() bool { return s.waiting.Load() == 1 })
	s.Host().Serving(false) // still no leader: another LOOKING
	start := time.Now()
	s.Host().Serving(true)
	body := r.readFrame()
	if len(body) < 16 || binary.BigEndian.Uint64(body[8:]) == 0 {
		t.Fatalf("connect response %x, want a session", body)
	}
	if d := time.Since(start); d >= leaderWait {
		t.Errorf("served %v after the leader came, want at once", d)
	}
	r.request(1, mw.OpExists, "/", false)
	if xid, code := r.reply(); xid != 1 || code != 0 {
		t.Fatalf("exists / after the wait: xid %d code %d", xid, code)
	}
}

// Stop ends a handshake that waits for a leader at once: it neither keeps
// Stop waiting for leaderWait nor outlives it, and the client sees the
// connection closed without a session.
func TestStopEndsAWaitingHandshake(t *testing.T) {
	s := startServer(t, newFake(), testProps)
	s.Host().Serving(false)
	r := dialRaw(t, s.Addr())
	start := time.Now() // before the handshake's wait begins: a wait that ran out takes leaderWait from here
	r.sendConnect(0, make([]byte, 16), 1000, 0)
	wait.For(t, "the handshake to wait for a leader", 10*time.Second, func() bool { return s.waiting.Load() == 1 })
	if err := s.Stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	if d := time.Since(start); d >= leaderWait {
		t.Errorf("Stop returned %v after the handshake, want it ended at once (not after leaderWait %v)", d, leaderWait)
	}
	if n := s.waiting.Load(); n != 0 {
		t.Errorf("%d handshakes still wait after Stop", n)
	}
	s.Host().Serving(true) // a late LEADING after Stop serves nobody
	if n, err := r.br.Read(make([]byte, 64)); err == nil {
		t.Fatalf("read %d bytes after Stop, want the connection closed without a session", n)
	}
}
