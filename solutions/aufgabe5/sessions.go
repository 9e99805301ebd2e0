package aufgabe5

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"zablab/mwzookeeper"
)

// session is a replicated session (A5.3): the same on every replica,
// but for seen.
type session struct {
	timeout  int32  // ms
	password []byte // drawn by the replica that proposed the session
	// owner is the myid of the replica the session moved to with its
	// latest reconnect, 0 before the first: a write proposed elsewhere
	// fails with SessionMoved. A new session has no owner, not its
	// creator: only the creator holds a connection for it then, and tests
	// that drive one session through several replicas without a
	// reconnect (the harness has no connections) keep working.
	owner uint64
	// seen is local, not replicated: when, on this replica's monotonic
	// clock (time since Service.start), a write or liveness message naming
	// the session was last applied here, or this replica became leader;
	// the leader expires the session a timeout later. Wall clocks (the
	// leaders' timestamps) play no part: they may step.
	seen time.Duration
}

// passwordLen is ZooKeeper's session password length.
const passwordLen = 16

// newPassword draws a session's password on the proposing replica (A5.3).
func newPassword() []byte {
	b := make([]byte, passwordLen)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on Linux
	return b
}

// applyCreateSession opens a session whose id is the zxid of its creation:
// unique, and the same on every replica (A5.3).
func (s *Service) applyCreateSession(c *applyCtx, t *txn) mwzookeeper.Response {
	id := c.zxid
	sess := &session{timeout: t.timeout, password: bytes.Clone(t.password)}
	s.sessions[id] = sess
	sess.seen = time.Since(s.start)
	return mwzookeeper.Response{Session: id, Password: bytes.Clone(t.password), Timeout: t.timeout}
}

// applyCloseSession ends a session at this point of the order on every
// replica: its ephemerals go (sorted, so in the same order everywhere),
// its watches here go, and the host hears of it (A5.3). Closing an
// unknown session is a no-op, so a client's close and the leader's expiry
// may both arrive.
func (s *Service) applyCloseSession(c *applyCtx, id int64, expired bool) {
	if s.sessions[id] == nil {
		return
	}
	for _, p := range s.tree.ephemeralsOf(id) {
		s.deleteNode(c, p)
	}
	// Their events go out while the session's watches still count: as in
	// ZooKeeper, the closing session hears of them before the close's reply.
	s.fire(c.events)
	c.events = c.events[:0]
	s.watches.RemoveSession(id)
	delete(s.sessions, id)
	delete(s.expiring, id)
	delete(s.active, id)
	s.closedOut = append(s.closedOut, closedSession{id, expired})
	s.log.WithFields(map[string]any{"session": fmt.Sprintf("%#x", id), "zxid": c.zxid, "expired": expired}).Debug("session closed")
}

// closedSession is a SessionClosed call for the host, made once the apply
// lock is released.
type closedSession struct {
	id      int64
	expired bool
}

// applyLiveness records the activity a replica saw since its last such
// message: each named session was seen now on the local clock (A5.3).
// ts, the leader's timestamp, plays no part: wall clocks may step.
func (s *Service) applyLiveness(ts int64, ids []int64) {
	for _, id := range ids {
		if sess := s.sessions[id]; sess != nil {
			sess.seen = time.Since(s.start)
		}
	}
}

// touch notes that session showed activity on this replica; the next
// liveness message carries it. Writes need no note: applying them counts.
// s.mu must be held (A5.3).
func (s *Service) touch(id int64) {
	if id != 0 {
		s.active[id] = struct{}{}
	}
}

// reconnect answers a client that comes back with its session id and
// password, locally (A5.3): an unknown or expired session, or a wrong
// password, is expired; a client that has seen a newer zxid than this
// replica applied is refused with ConnectionLoss, so it tries another
// replica (or this one later) and never reads older state than it saw.
// A session that comes from another replica moves here: the owner change
// is proposed, ordered before every write the client sends here next.
func (s *Service) reconnect(req *mwzookeeper.Request) *mwzookeeper.Response {
	r := &mwzookeeper.Response{Zxid: s.lastZxid}
	sess := s.sessions[req.Session]
	switch {
	// The zxid first, as ZooKeeper does: a replica behind the client may
	// not know the session yet, and must send the client elsewhere rather
	// than declare its session expired.
	case req.LastZxid > s.lastZxid:
		r.Err = fmt.Errorf("%w: session %#x has seen zxid %#x, this replica applied only up to %#x",
			mwzookeeper.ErrConnectionLoss, req.Session, req.LastZxid, s.lastZxid)
	case sess == nil:
		r.Err = fmt.Errorf("%w: session %#x is unknown or expired", mwzookeeper.ErrSessionExpired, req.Session)
	case !bytes.Equal(sess.password, req.Password):
		r.Err = fmt.Errorf("%w: wrong password for session %#x", mwzookeeper.ErrSessionExpired, req.Session)
	case sess.owner != s.myid:
		// The session moves here: from the owner change on, in the order,
		// writes through its old replica fail with SessionMoved.
		msg := appendHeader(nil, kindOwner, header{proposer: s.myid, incarnation: s.inc})
		if _, err := s.zab.Propose(binary.AppendVarint(msg, req.Session)); err != nil {
			r.Err = fmt.Errorf("%w: session %#x cannot move to replica %d: %w", mwzookeeper.ErrConnectionLoss, req.Session, s.myid, err)
			return r
		}
		fallthrough
	default:
		s.touch(req.Session)
		r.Session, r.Password, r.Timeout = req.Session, bytes.Clone(sess.password), sess.timeout
	}
	return r
}

// reconnectAhead takes a reconnect of a session this replica does not know
// but may not have applied the creation of yet (createdAhead): a client
// that had no reply yet sends last zxid 0, and its session's id is the
// zxid of its creation. As a ZooKeeper follower asks its leader, it syncs
// first: the creation was committed before the client learnt the id, so
// once the sync is delivered here a session still unknown is expired
// (DeliverSync answers through request.then). A session known by then is
// not moved here but answered ConnectionLoss, and the server asks again
// (answered at once then): the client may have given up on this replica
// while the sync took its time and moved the session elsewhere, and a
// move proposed now would take it back behind the client's back (its
// writes there would fail SessionMoved); the server asks again only once
// it has checked that the client is still there. s.mu must be held;
// false: reconnect answers at once.
func (s *Service) reconnectAhead(req *mwzookeeper.Request, reply func(*mwzookeeper.Response)) bool {
	if s.sessions[req.Session] != nil || req.LastZxid > s.lastZxid || !createdAhead(req.Session, s.lastZxid) {
		return false
	}
	c, err := s.zab.Sync()
	if err != nil {
		reply(connLoss(req, err.Error()))
		return true
	}
	r := &request{write: true, sync: true, session: req.Session, reply: reply,
		then: func() *mwzookeeper.Response {
			if s.sessions[req.Session] == nil {
				return s.reconnect(req) // expired
			}
			return &mwzookeeper.Response{Zxid: s.lastZxid, Err: fmt.Errorf("%w: session %#x was applied here while its reconnect waited: ask again",
				mwzookeeper.ErrConnectionLoss, req.Session)}
		}}
	s.syncs[c.Seq] = r
	s.enqueue(r)
	return true
}

// createdAhead says whether session id, the zxid of its creation, may be
// one that this replica, having applied up to last, has yet to apply: of
// last's epoch or the next. Ids of later epochs are none of this
// ensemble's (a read-only session's carry its peer in the top byte, an
// epoch no ensemble reaches), and are answered expired at once.
func createdAhead(id, last int64) bool {
	return id > last && id>>32 <= last>>32+1
}

// livenessLoop runs once per tick: it proposes the sessions active here
// since the last round and, on the leader, the close of every session
// not seen for its timeout on the local monotonic clock (A5.3). The
// close is proposed, not done here, so every replica applies it at the
// same point of the order.
func (s *Service) livenessLoop() {
	defer close(s.loopDone)
	t := time.NewTicker(s.tick)
	defer t.Stop()
	var buf []byte
	for {
		select {
		case <-s.quit:
			return
		case <-t.C:
		}
		active, expire := s.livenessRound()
		if len(active) > 0 {
			buf = appendLiveness(buf[:0], header{proposer: s.myid, incarnation: s.inc}, active)
			if _, err := s.zab.Propose(buf); err != nil {
				s.mu.Lock() // the next round says it again
				for _, id := range active {
					s.active[id] = struct{}{}
				}
				s.mu.Unlock()
			}
		}
		for _, id := range expire {
			buf = appendRequest(buf[:0], header{proposer: s.myid, incarnation: s.inc},
				&mwzookeeper.Request{Op: mwzookeeper.OpCloseSession, Session: id}, nil, true)
			if _, err := s.zab.Propose(buf); err != nil {
				s.mu.Lock()
				delete(s.expiring, id) // try again next round
				s.mu.Unlock()
			}
		}
		for _, path := range s.sweepCandidates() { // beyond the sheet; a failed proposal waits for the next sweep
			buf = appendRequest(buf[:0], header{proposer: s.myid, incarnation: s.inc},
				&mwzookeeper.Request{Op: mwzookeeper.OpDeleteContainer, Path: path}, nil, false)
			_, _ = s.zab.Propose(buf)
		}
	}
}

// livenessRound takes the sessions active since the last round and, if
// this replica leads, picks the sessions to expire (A5.3).
func (s *Service) livenessRound() (active, expire []int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.serving {
		return nil, nil
	}
	for id := range s.active {
		active = append(active, id)
	}
	clear(s.active)
	slices.Sort(active)
	if s.role != roleLeading {
		return active, nil
	}
	now := time.Since(s.start) // monotonic: a stepped wall clock expires nobody
	for id, sess := range s.sessions {
		_, seen := slices.BinarySearch(active, id) // active here now, not yet replicated
		if now-sess.seen > time.Duration(sess.timeout)*time.Millisecond && !s.expiring[id] && !seen {
			s.expiring[id] = true
			expire = append(expire, id)
		}
	}
	slices.Sort(expire)
	return active, expire
}
