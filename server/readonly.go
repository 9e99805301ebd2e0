package server

import (
	"crypto/rand"
	"fmt"
	"time"

	"zablab/mwzookeeper"
	"zablab/mwzookeeper/wire"
)

// ZooKeeper's read-only mode (readonlymode.enabled): a replica that has
// not served for max(2 s, tickTime), its quorum gone, answers clients that
// asked for a read-only connection (ConnectRequest.ReadOnly) from the
// state it last applied, through the Service's mwzookeeper.ReadOnly;
// writes and sync are answered NotReadOnly. Read-write clients are refused
// as before. When the replica serves again its read-only connections are
// closed, so their clients come back read-write. The sessions of read-only
// connections are the server's own, unknown to the ensemble, as
// ZooKeeper's local sessions of its ReadOnlyZooKeeperServer are.

// readOnlyDelay is how long a replica without a quorum waits before it
// serves read-only clients: ZooKeeper's max(2 s, tickTime).
func (s *Server) readOnlyDelay() time.Duration { return max(2*time.Second, s.cfg.TickTime) }

// armReadOnly starts the wait for read-only mode, if it is on; s.mu held.
// A later armReadOnly or leaveReadOnly cancels it (roGen).
func (s *Server) armReadOnly() {
	if s.ro == nil || s.stopped {
		return
	}
	s.roGen++
	gen := s.roGen
	if s.roTimer != nil {
		s.roTimer.Stop()
	}
	s.roTimer = time.AfterFunc(s.readOnlyDelay(), func() { s.enterReadOnly(gen) })
}

// enterReadOnly switches read-only mode on unless the replica served or
// stopped since the wait started, and wakes the handshakes that wait.
func (s *Server) enterReadOnly(gen uint64) {
	s.mu.Lock()
	if gen != s.roGen || s.serving || s.stopped || s.readOnly {
		s.mu.Unlock()
		return
	}
	s.readOnly = true
	close(s.roReady)
	s.mu.Unlock()
	s.log.Info("read-only mode: serving read-only clients from the last applied state (no quorum)")
}

// leaveReadOnly ends read-only mode and its wait; s.mu held. It says
// whether read-only mode was on: the caller then closes its connections
// (closeReadOnly) once it has let go of s.mu.
func (s *Server) leaveReadOnly() bool {
	s.roGen++
	if s.roTimer != nil {
		s.roTimer.Stop()
		s.roTimer = nil
	}
	was := s.readOnly
	if was {
		s.readOnly = false
		s.roReady = make(chan struct{})
	}
	return was
}

// closeReadOnly closes every read-only connection: its client finds a
// read-write server (ZooKeeper closes them all when its read-only server
// shuts down).
func (s *Server) closeReadOnly(reason string) {
	s.mu.RLock()
	var cs []*conn
	for c := range s.conns {
		if c.readOnly.Load() {
			cs = append(cs, c)
		}
	}
	s.mu.RUnlock()
	for _, c := range cs {
		c.close(reason)
	}
}

func (s *Server) isReadOnly() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.readOnly && !s.stopped
}

// answering says whether the replica answers clients at all: serving, or
// in read-only mode. The status words report only then.
func (s *Server) answering() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return (s.serving || s.readOnly) && !s.stopped
}

// newReadOnlySession makes a session id as ZooKeeper's local sessions
// have them: the peer's id in the top byte, so none is a zxid (the
// reference's ids), then milliseconds and a counter.
func (s *Server) newReadOnlySession() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.roNext == 0 {
		s.roNext = int64(uint64(time.Now().UnixMilli()<<24)>>8) | int64(max(s.ID(), 1))<<56
	}
	s.roNext++
	return s.roNext
}

// connectReadOnly answers a read-only client's connect request while the
// replica is in read-only mode, without the Service. A client that brings
// a session keeps its id and password (a deliberate difference: ZooKeeper
// 3.8 closes such a connection when the session is a global one); a new
// one gets a fresh id and password. The timeout is negotiated as usual.
func (c *conn) connectReadOnly(creq wire.ConnectRequest) bool {
	id, pw := creq.SessionID, creq.Password
	if id == 0 {
		id, pw = c.srv.newReadOnlySession(), make([]byte, 16)
		if _, err := rand.Read(pw); err != nil {
			c.close(fmt.Sprintf("read-only session 0x%x: no password: %v", id, err))
			return false
		}
	}
	t := c.srv.cfg.Negotiate(creq.Timeout)
	c.pingReq = mwzookeeper.Request{Op: mwzookeeper.OpPing, Session: id}
	c.timeout.Store(int64(t))
	c.readOnly.Store(true)
	frame := wire.AppendConnectResponse(nil, wire.ConnectResponse{Timeout: t, SessionID: id,
		Password: pw, ReadOnly: true}, creq.HasReadOnly)
	if !c.srv.bind(c, id, frame) {
		c.closeQuiet(fmt.Sprintf("read-only session 0x%x refused: the replica left read-only mode during the handshake", id))
		return false
	}
	c.wakeWriter()
	c.log.WithField("session", fmt.Sprintf("0x%x", id)).WithField("timeout_ms", t).Info("read-only session connected")
	return true
}

// dispatchReadOnly answers a request of a read-only connection: reads from
// the Service's last applied state, writes and sync NotReadOnly (as
// ZooKeeper's ReadOnlyRequestProcessor), closeSession here (the session
// is the server's own). false: stop reading.
func (c *conn) dispatchReadOnly(s *slot) bool {
	req := &s.req
	c.enqueue(s)
	switch {
	case req.Op == mwzookeeper.OpCloseSession:
		s.completeErr(nil)
		c.drain()
		return false
	case req.Op.IsWrite() || req.Op == mwzookeeper.OpSync:
		s.completeErr(fmt.Errorf("%w: %s %q of session 0x%x: the replica is read-only (no quorum)",
			mwzookeeper.ErrNotReadOnly, req.Op, req.Path, req.Session))
	default:
		s.complete(c.srv.ro.ReadStale(req))
	}
	return true
}
