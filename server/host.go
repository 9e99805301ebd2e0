package server

import (
	"time"

	"github.com/sirupsen/logrus"

	"zablab/mwzookeeper"
)

// host is the mwzookeeper.Host the server gives its Service.
type host struct{ s *Server }

var _ mwzookeeper.Host = (*host)(nil)

func (h *host) Now() time.Time {
	now := time.Now
	if h.s.opts.Now != nil {
		now = h.s.opts.Now
	}
	return now().Add(h.s.opts.Skew)
}

func (h *host) Logger() logrus.FieldLogger { return h.s.log }

// Notify puts ev on session's connection ahead of every reply not yet
// written.
func (h *host) Notify(session int64, ev mwzookeeper.WatchEvent) {
	if c := h.s.sessionConn(session); c != nil {
		c.event(ev)
	}
}

// SessionClosed lets session's connection finish the replies it owes
// (the reply to closeSession among them), then closes it.
func (h *host) SessionClosed(session int64, expired bool) {
	c := h.s.sessionConn(session)
	if c == nil {
		return
	}
	if expired {
		c.log.Info("session expired: closing its connection")
	}
	c.drain()
}

// Serving(false) closes every client connection; new ones wait up to
// leaderWait for Serving(true), then are closed.
func (h *host) Serving(ok bool) {
	s := h.s
	s.mu.Lock()
	was := s.serving
	s.serving = ok && !s.stopped
	now := s.serving
	wasReadOnly := false
	switch {
	case s.serving && !was:
		s.served.Store(true)
		close(s.resumed) // wakes the handshakes that wait for a leader
		wasReadOnly = s.leaveReadOnly()
	case was && !s.serving:
		s.resumed = make(chan struct{})
		s.lost.Add(1)
		s.armReadOnly()
	}
	s.mu.Unlock()
	if wasReadOnly {
		s.log.Info("read-only mode ends: the replica serves again; read-only connections closed")
		s.closeReadOnly("the replica serves again: read-only connection closed, its client reconnects read-write")
	}
	if was != now { // after Stop, Serving(true) changes nothing and says nothing
		s.log.WithField("serving", now).Info("serving clients: " + map[bool]string{true: "yes", false: "no, connections closed until a leader is established"}[now])
	}
	if was && !ok { // only then: a repeated Serving(false) spares the handshakes that wait
		s.closeAll("the replica is not serving (no leader)", false)
	}
}
