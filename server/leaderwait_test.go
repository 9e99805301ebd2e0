package server

import (
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

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

// loseFirstConnect is the fake whose first connect request is lost to a
// leader change: the Service answers it ConnectionLoss and stops serving,
// in either order (the reference fails its requests a moment before it
// tells its Host).
type loseFirstConnect struct {
	*fake
	replyFirst bool
	mu         sync.Mutex
	lost       bool
}

func (l *loseFirstConnect) Submit(req *mw.Request, reply func(*mw.Response)) {
	l.mu.Lock()
	first := !l.lost && (req.Op == mw.OpCreateSession || req.Op == mw.OpReconnect)
	l.lost = l.lost || first
	l.mu.Unlock()
	if !first {
		l.fake.Submit(req, reply)
		return
	}
	loss := &mw.Response{Err: fmt.Errorf("%w: the replica is LOOKING", mw.ErrConnectionLoss)}
	if l.replyFirst {
		go l.fake.host.Serving(false) // a moment after the answer
		reply(loss)
		return
	}
	l.fake.host.Serving(false)
	reply(loss)
}

// A handshake whose connect request a leader change answered with
// ConnectionLoss waits for the next leader and connects then, instead of
// closing: go-zookeeper, which had just come from the other server, would
// sleep a second before trying again (the 1 s failovers of make bench).
func TestHandshakeOutlivesALeaderChange(t *testing.T) {
	for _, replyFirst := range []bool{false, true} {
		t.Run(fmt.Sprintf("reply first %v", replyFirst), func(t *testing.T) {
			svc := &loseFirstConnect{fake: newFake(), replyFirst: replyFirst}
			s := startServer(t, svc, testProps)
			r := dialRaw(t, s.Addr())
			r.sendConnect(0, make([]byte, 16), 1000, 0)
			wait.For(t, "the handshake to wait for the next leader", 10*time.Second, func() bool { return s.waiting.Load() == 1 })
			s.Host().Serving(true)
			body := r.readFrame()
			if len(body) < 16 || binary.BigEndian.Uint64(body[8:]) == 0 {
				t.Fatalf("connect response %x, want a session", body)
			}
			r.request(1, mw.OpExists, "/", false)
			if xid, code := r.reply(); xid != 1 || code != 0 {
				t.Fatalf("exists / after the leader change: xid %d code %d", xid, code)
			}
		})
	}
}

// behindClient is the fake whose replica is behind the client: it answers
// connect requests with ConnectionLoss until caught up, as a follower that
// has not yet applied the last write a client saw on the old leader.
type behindClient struct {
	*fake
	mu       sync.Mutex
	behind   bool
	attempts int
}

func (b *behindClient) Submit(req *mw.Request, reply func(*mw.Response)) {
	b.mu.Lock()
	isConnect := req.Op == mw.OpCreateSession || req.Op == mw.OpReconnect
	if isConnect {
		b.attempts++
	}
	behind := b.behind && isConnect
	b.mu.Unlock()
	if behind {
		reply(&mw.Response{Err: fmt.Errorf("%w: this replica is behind the client", mw.ErrConnectionLoss)})
		return
	}
	b.fake.Submit(req, reply)
}

func (b *behindClient) tries() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.attempts
}

// A replica behind the client answers its connect ConnectionLoss; the
// handshake asks again until it has caught up (within leaderWait) instead
// of closing, which cost go-zookeeper a second's back-off.
func TestHandshakeWaitsForAReplicaBehindTheClient(t *testing.T) {
	svc := &behindClient{fake: newFake(), behind: true}
	s := startServer(t, svc, testProps)
	r := dialRaw(t, s.Addr())
	r.sendConnect(0, make([]byte, 16), 1000, 0)
	wait.For(t, "the handshake to ask again", 10*time.Second, func() bool { return svc.tries() >= 3 })
	svc.mu.Lock()
	svc.behind = false
	svc.mu.Unlock()
	body := r.readFrame()
	if len(body) < 16 || binary.BigEndian.Uint64(body[8:]) == 0 {
		t.Fatalf("connect response %x, want a session once the replica caught up", body)
	}
}

// TestNeverServedRefusalIsLogged: a client refused by a replica that has
// never served is one warning naming Host.Serving and the Status callback
// (a student's Service without Status: the log was silent, the shell only
// said "no session"); a replica that served before logs no such warning.
func TestNeverServedRefusalIsLogged(t *testing.T) {
	for _, c := range []struct {
		name   string
		served bool
		want   int
	}{{"never served", false, 1}, {"served before", true, 0}} {
		t.Run(c.name, func(t *testing.T) {
			logger, hook := logtest.NewNullLogger()
			f := newFake()
			f.noServe = !c.served
			s := startServerLogged(t, f, testProps, logger)
			s.Host().Serving(false)
			for range 2 {
				r := dialRaw(t, s.Addr())
				r.sendConnect(0, make([]byte, 16), 1000, 0)
				if !r.closed() {
					t.Fatal("a connect to a replica that does not serve was not closed")
				}
			}
			n := 0
			for _, e := range hook.AllEntries() {
				// It names where to look, as the grader's hint does.
				if e.Level == logrus.WarnLevel && strings.Contains(e.Message, "Host.Serving(true)") &&
					strings.Contains(e.Message, "callback.Status in callback.go") {
					n++
				}
			}
			if n != c.want {
				t.Errorf("%d warnings naming Host.Serving(true) for two refused clients, want %d", n, c.want)
			}
		})
	}
}
