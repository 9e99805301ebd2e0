package aufgabe5

import (
	"fmt"
	"io"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/mwzookeeper"
	"zablab/zab"
)

// callback is the Service as Zab's application (zab.Callback): a separate
// method set, so that Deliver and friends are not part of the Service's
// public API. Zab calls it from one goroutine, in order; it never blocks
// on a client: replies are given after the apply lock is released, and a
// reply function must not block (mwzookeeper.Service).
type callback Service

const (
	roleLooking = zab.Looking
	roleLeading = zab.Leading
)

// Deliver applies one delivered message on this replica, and answers the
// client if this replica's run proposed it and the request still waits
// (A5.2). A message that does not decode is logged and skipped; every
// replica skips it alike, so the state stays the same everywhere, and
// its proposer answers its request with the reason (never leaves it waiting).
func (cb *callback) Deliver(c zab.TxnCookie, msg []byte) {
	s := (*Service)(cb)
	s.mu.Lock()
	err := decodeTxn(msg, &s.tx)
	t := &s.tx
	out := s.cbOut[:0]
	var resp mwzookeeper.Response
	switch {
	case err != nil:
		// The state (lastZxid too) stays as it was. The header decodes
		// first: if the message is ours, its client hears why.
		s.log.WithFields(logrus.Fields{"zxid": int64(c.Zxid), "proposer": c.Proposer, "bytes": len(msg)}).
			WithError(err).Error("delivered message rejected; state unchanged")
		resp = mwzookeeper.Response{Zxid: s.lastZxid, Err: fmt.Errorf("%w: session %#x: %w", mwzookeeper.ErrBadArguments, t.session, err)}
	case t.kind == kindLiveness:
		s.lastZxid = int64(c.Zxid)
		s.applyLiveness(c.Timestamp/1e6, t.sessions)
	case t.kind == kindOwner:
		s.lastZxid = int64(c.Zxid)
		if sess := s.sessions[t.session]; sess != nil {
			sess.owner = t.proposer
		}
	case t.kind == kindRequest:
		s.lastZxid = int64(c.Zxid)
		resp = s.applyRequest(t, c)
	}
	if (err != nil || t.kind == kindRequest) && t.proposer == s.myid && t.incarnation == s.inc && t.reqno != 0 {
		if r := s.pending[t.reqno]; r != nil {
			delete(s.pending, t.reqno)
			rp := new(mwzookeeper.Response)
			*rp = resp
			s.answer(r, rp, &out)
		}
	}
	closed := s.closedOut
	s.closedOut = nil
	s.mu.Unlock()
	for _, cs := range closed {
		s.host.SessionClosed(cs.id, cs.expired)
	}
	flush(out)
	s.cbOut = out
}

// DeliverSync answers the sync with this cookie, if it still waits (A5.2).
func (cb *callback) DeliverSync(c zab.TxnCookie) {
	s := (*Service)(cb)
	out := s.cbOut[:0]
	s.mu.Lock()
	if r := s.syncs[c.Seq]; r != nil {
		delete(s.syncs, c.Seq)
		resp := &mwzookeeper.Response{Zxid: s.lastZxid, Path: r.path}
		if r.then != nil {
			resp = r.then()
		}
		s.answer(r, resp, &out)
		s.release(r.session, &out)
	}
	s.mu.Unlock()
	flush(out)
	s.cbOut = out
}

// Status follows the local Zab's role. LOOKING fails every request in
// flight with ConnectionLoss and stops serving; FOLLOWING and LEADING
// serve again. A new leader grants every session a fresh timeout (A5.2,
// A5.3).
func (cb *callback) Status(st zab.Status, leader string) {
	s := (*Service)(cb)
	out := s.cbOut[:0]
	s.mu.Lock()
	prev := s.role
	s.role, s.leader = st, leader
	if st == roleLooking {
		s.serving = false
		s.failAll("the replica lost its leader", &out)
		// The server closes every connection now, and watches belong to
		// connections (as in ZooKeeper): clients set them again with
		// setWatches when they reconnect, here or elsewhere.
		s.watches = mwzookeeper.NewWatchTable()
	} else {
		s.serving = !s.stopped
	}
	if st == roleLeading && prev != roleLeading {
		now := time.Since(s.start)
		for _, sess := range s.sessions { // a fresh timeout on its own clock
			sess.seen = now
		}
		clear(s.expiring)
	}
	serving := s.serving
	s.mu.Unlock()
	flush(out)
	s.cbOut = out
	s.log.WithFields(logrus.Fields{"role": st.String(), "leader": leader}).Debug("status")
	s.host.Serving(serving)
}

// GetState writes the replicated state (A5.2). Zab calls it while no
// other callback runs, and only callbacks change the state, so it reads
// without the apply lock and holds no lock across the writes (reads of
// clients only read the tree meanwhile).
func (cb *callback) GetState(w io.Writer) error {
	return (*Service)(cb).writeState(w)
}

// SetState replaces the replicated state with a snapshot (A5.2).
func (cb *callback) SetState(r io.Reader, last zab.TxnCookie) error {
	return (*Service)(cb).readState(r, last)
}
