package aufgabe5

import (
	"fmt"

	"zablab/mwzookeeper"
	"zablab/zab"
)

// applyCtx is the context of the one delivered write being applied: where
// it stands in the order, and what it changed so far (to undo a failed
// multi, and the watch events to fire once it succeeded). One is reused
// for every delivery: apply runs on Zab's callback goroutine only.
type applyCtx struct {
	zxid    int64
	ts      int64 // the cookie's leader timestamp, ms (A5.4)
	session int64
	auth    []mwzookeeper.ID // the identities the request came with (beyond the sheet: ACLs)
	format  byte             // the message's txn format: 2 knew no containers and TTL nodes
	undo    []change
	events  []mwzookeeper.WatchEvent
}

// change records one mutation so that undo can reverse it.
type change struct {
	kind       byte // created, deleted or changed
	path       string
	node       *znode             // deleted: the node to put back
	parentStat mwzookeeper.MWStat // created, deleted: the parent's stat before
	oldData    []byte             // changed
	oldStat    mwzookeeper.MWStat // changed
}

const (
	created byte = iota + 1
	deleted
	changed
)

func (c *applyCtx) reset(cookie zab.TxnCookie, session int64) {
	// TODO(A5.1): start the context of a new delivery: its zxid
	// (cookie.Zxid), its session, no undo records, no events, and its time
	// c.ts in ms, which create and setData give to ctime and mtime.
	// (applyRequest sets c.auth and c.format from the delivered txn: the
	// provided ACL and path checks read them.)
	// TODO(A5.4): that time is the leader's timestamp of the cookie
	// (cookie.Timestamp, ns), never the local clock: the replicas' clocks
	// differ, the cookie is the same everywhere.
}

// event records a watch event with the ACL of the node it is about: the
// server sends it only to sessions that may read that node.
func (c *applyCtx) event(typ mwzookeeper.EventType, path string, acl []mwzookeeper.ACL) {
	c.events = append(c.events, mwzookeeper.WatchEvent{Type: typ, Path: path, Zxid: c.zxid, ACL: acl})
}

// applyRequest applies one delivered write request on every replica and
// returns its outcome, which only the proposing replica sends (A5.1, A5.2, A5.3, A5.6, A5.7).
// Everything it decides comes from the request, the tree and the cookie.
func (s *Service) applyRequest(t *txn, cookie zab.TxnCookie) mwzookeeper.Response {
	// TODO(A5.1): apply one delivered write request, on every replica, and
	// return its outcome (only the proposing replica sends it). Start the
	// context (s.ctx.reset), refuse a request of a session (not 0) that
	// does not exist (ErrSessionExpired); a request without a session (0)
	// goes on, and create answers its ephemeral ErrBadArguments. Then by
	// t.op: a tree operation with applyOp(t.rec), a session with
	// applyCreateSession or applyCloseSession. The Response carries the
	// zxid. Decide from the request, the tree and the cookie only. Set
	// c.auth = t.auth and c.format = t.version after the reset: nodeACL,
	// permitted and the path checks of paths.go judge by them.
	// TODO(A5.2): a session moved to another replica by a reconnect
	// (sess.owner, set and not t.proposer) fails the writes still sent
	// through its old replica with ErrSessionMoved; the leader's expiry
	// (t.expired) comes from anywhere.
	// TODO(A5.3): a write is activity of its session: note when it was
	// seen here (sess.seen = time.Since(s.start), this replica's monotonic
	// clock; only the leader's decision to expire depends on it, and that
	// decision is proposed through Zab).
	// TODO(A5.6): after a successful write, fire its watch events (fire).
	// TODO(A5.7): OpMulti with applyMulti(t.ops).
	return mwzookeeper.Response{Zxid: int64(cookie.Zxid), Err: fmt.Errorf("%w: TODO(A5.1) in apply.go: Service.applyRequest: %s", mwzookeeper.ErrUnimplemented, t.op)}
}

// fire sends the watch events of an applied write to the sessions that
// watch them on this replica (A5.6).
func (s *Service) fire(evs []mwzookeeper.WatchEvent) {
	// TODO(A5.6): send each event to the sessions that watch it on this
	// replica (s.watches.Fire).
}

// applyOp applies one tree operation; on error nothing changed (A5.1, A5.7).
func (s *Service) applyOp(c *applyCtx, o *mwzookeeper.Op) (string, mwzookeeper.MWStat, error) {
	// TODO(A5.1): one tree operation: create (create2 too: the same
	// create, whose reply also carries the stat), delete or setData.
	// TODO(A5.7): check (a multi's version check: existing).
	return "", mwzookeeper.MWStat{}, fmt.Errorf("%w: TODO(A5.1) in apply.go: Service.applyOp: %s", mwzookeeper.ErrUnimplemented, o.Op)
}

// create follows ZooKeeper's checks in its order: mode and TTL, path,
// data size, the ACL (InvalidACL), parent (NoNode), the parent's CREATE
// permission (NoAuth), the name (NodeExists), an ephemeral parent (A5.1,
// A5.3, sequential nodes; ACLs, containers and TTL nodes beyond the sheet).
func (s *Service) create(c *applyCtx, o *mwzookeeper.Op) (string, mwzookeeper.MWStat, error) {
	// TODO(A5.1): ZooKeeper's checks, in its order: the mode (Container
	// and TTL modes: ErrUnimplemented), the path (validWritePath with
	// c.format: mwzookeeper.ValidatePath for new writes), the data size
	// (mwzookeeper.MaxData), an ephemeral node's session (ErrBadArguments
	// without one), the node's ACL (nodeACL), the parent (ErrNoNode), the
	// name (systemNode, then ErrNodeExists), an ephemeral parent
	// (ErrNoChildrenForEphemerals). Then link the new node (s.tree.link)
	// with its stat: czxid = mzxid = pzxid = the write's zxid, ctime =
	// mtime = the write's time c.ts, an ephemeral node's owner is its
	// session (EphemeralOwner); and update the parent's cversion and pzxid.
	// Return the path created and the stat.
	// TODO(A5.5): a sequential node's name ends in the parent's cversion
	// (mwzookeeper.SequentialName).
	// TODO(A5.6): record the events NodeCreated (path, the new node's
	// acl from nodeACL) and NodeChildrenChanged (parent, the parent's acl)
	// with c.event: the server sends an event only to sessions that may
	// read its node (nil: to every watcher; never the request's own
	// o.ACL, which nodeACL first fixes up).
	// TODO(A5.7): record the change for undo (c.undo).
	return "", mwzookeeper.MWStat{}, fmt.Errorf("%w: TODO(A5.1) in apply.go: Service.create: %q", mwzookeeper.ErrUnimplemented, o.Path)
}

// existing returns the node at path if it exists with version (-1: any)
// (A5.1; paths.go says which paths are valid).
func (s *Service) existing(path string, version int32) (*znode, error) {
	// TODO(A5.1): the node at path, which must be valid (validPath:
	// ErrBadArguments), if it exists (ErrNoNode) with the version asked
	// for (-1: any; else ErrBadVersion).
	return nil, fmt.Errorf("%w: TODO(A5.1) in apply.go: Service.existing: %q", mwzookeeper.ErrUnimplemented, path)
}

// delete removes a childless node. The path is checked first (the
// sheet's BadArguments, where ZooKeeper looks for the parent first), then
// in ZooKeeper's order: system nodes ("/", "/zookeeper" and the two it
// keeps below it) cannot go, the parent (NoNode), its DELETE permission
// (NoAuth), the node (NoNode), BadVersion, NotEmpty (A5.1; ACLs beyond
// the sheet).
func (s *Service) delete(c *applyCtx, o *mwzookeeper.Op) error {
	// TODO(A5.1): a valid path (validPath), then ZooKeeper's checks in its
	// order: "/" and "/zookeeper" never go, nor (systemNode, by c.format)
	// "/zookeeper/quota" and "/zookeeper/config" (ErrBadArguments), then
	// the node and its version (existing), then no children (ErrNotEmpty);
	// deleteNode does the rest.
	return fmt.Errorf("%w: TODO(A5.1) in apply.go: Service.delete: %q", mwzookeeper.ErrUnimplemented, o.Path)
}

// deleteNode removes the childless node at path, updates its parent's
// cversion and pzxid, and records the events and the undo (A5.1, A5.6, A5.7).
func (s *Service) deleteNode(c *applyCtx, path string) {
	// TODO(A5.1): unlink the childless node at path (s.tree.unlink) and
	// update its parent's cversion and pzxid.
	// TODO(A5.6): record NodeDeleted (path, the node's acl) and
	// NodeChildrenChanged (parent, the parent's acl).
	// TODO(A5.7): record the change for undo.
}

// setData replaces a node's data: version++, mzxid and mtime (A5.1, A5.6, A5.7);
// it needs WRITE on the node (beyond the sheet).
func (s *Service) setData(c *applyCtx, o *mwzookeeper.Op) (mwzookeeper.MWStat, error) {
	// TODO(A5.1): the node with the version asked for (permitted, with
	// mwzookeeper.PermWrite: it also checks the path by c.format and the
	// node's ACL), the data size; replace the data (s.tree.setData), version + 1, mzxid = the
	// write's zxid, mtime = its time c.ts; return the new stat.
	// TODO(A5.6): record NodeDataChanged (the node's acl).
	// TODO(A5.7): record the change for undo.
	return mwzookeeper.MWStat{}, fmt.Errorf("%w: TODO(A5.1) in apply.go: Service.setData: %q", mwzookeeper.ErrUnimplemented, o.Path)
}

// undo reverses the recorded changes, newest first, and forgets the
// events: a failed multi leaves no trace.
func (s *Service) undo(c *applyCtx) {
	// TODO(A5.7): reverse the recorded changes, newest first, and forget
	// the events: a failed multi leaves no trace.
}
