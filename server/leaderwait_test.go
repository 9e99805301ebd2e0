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
