package aufgabe5

import (
	"io"

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
// (A5.1, A5.2, A5.3). A message that does not decode is logged and skipped; every
// replica skips it alike, so the state stays the same everywhere, and
// its proposer answers its request with the reason (never leaves it waiting).
func (cb *callback) Deliver(c zab.TxnCookie, msg []byte) {
	// TODO(A5.1): apply one delivered message on this replica. Decode it
	// (decodeTxn into s.tx): a message that does not decode is logged and
	// skipped, alike on every replica, the state unchanged, and if this
	// replica proposed it, its request is answered with ErrBadArguments
	// and the reason. Otherwise note its zxid (s.lastZxid) and apply it
	// under s.mu: a request with applyRequest. If this run of this
	// replica proposed it (the decoded header's proposer == s.myid and
	// incarnation == s.inc; not the cookie's Incarnation, which is the Zab
	// library's own run number, never s.inc) and it still waits in
	// s.pending, answer it with the outcome. Give the
	// replies, and the host's SessionClosed calls collected in s.closedOut,
	// only after unlocking.
	// TODO(A5.2): an owner message (kindOwner) makes its proposer the
	// owner of the session it names (a reconnect moved it there).
	// TODO(A5.3): a liveness message refreshes its sessions
	// (applyLiveness).
}

// DeliverSync answers the sync with this cookie, if it still waits (A5.2).
func (cb *callback) DeliverSync(c zab.TxnCookie) {
	// TODO(A5.2): answer the sync with this cookie's Seq (s.syncs), if it
	// still waits, with the zxid applied so far and the sync's path (as
	// ZooKeeper echoes it); then propose the writes of its session held
	// behind it (release).
}

// Status follows the local Zab's role. LOOKING fails every request in
// flight with ConnectionLoss and stops serving; FOLLOWING and LEADING
// serve again. A new leader grants every session a fresh timeout (A5.1, A5.2, A5.3).
func (cb *callback) Status(st zab.Status, leader string) {
	// TODO(A5.1): follow the local Zab's role (s.role, s.leader). FOLLOWING
	// and LEADING: serve (s.serving, unless stopped) and tell the host
	// (s.host.Serving) after unlocking.
	// TODO(A5.2): LOOKING: stop serving and answer every request waiting
	// here with ConnectionLoss (failAll): the leader is gone, and what was
	// in flight may be delivered later or never.
	// TODO(A5.3): a replica that becomes leader grants every session a
	// fresh timeout (seen = now on its own clock) and forgets the expiries
	// it proposed (s.expiring).
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
