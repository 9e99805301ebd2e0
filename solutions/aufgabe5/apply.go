package aufgabe5

import (
	"bytes"
	"fmt"
	"time"

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
	c.zxid = int64(cookie.Zxid)
	c.ts = cookie.Timestamp / 1e6
	c.session = session
	c.auth = nil
	c.undo = c.undo[:0]
	c.events = c.events[:0]
}

// event records a watch event with the ACL of the node it is about: the
// server sends it only to sessions that may read that node.
func (c *applyCtx) event(typ mwzookeeper.EventType, path string, acl []mwzookeeper.ACL) {
	c.events = append(c.events, mwzookeeper.WatchEvent{Type: typ, Path: path, Zxid: c.zxid, ACL: acl})
}

// applyRequest applies one delivered write request on every replica and
// returns its outcome, which only the proposing replica sends (A5.1, A5.2).
// Everything it decides comes from the request, the tree and the cookie.
func (s *Service) applyRequest(t *txn, cookie zab.TxnCookie) mwzookeeper.Response {
	c := &s.ctx
	c.reset(cookie, t.session)
	c.auth = t.auth
	c.format = t.version
	var r mwzookeeper.Response
	if t.op != mwzookeeper.OpCreateSession && t.session != 0 {
		sess := s.sessions[t.session]
		if sess == nil {
			r.Err = fmt.Errorf("%w: session %#x", mwzookeeper.ErrSessionExpired, t.session)
			r.Zxid = c.zxid
			return r
		}
		if sess.owner != 0 && sess.owner != t.proposer && !t.expired {
			// Sent through a server the session has left (ZooKeeper's
			// owner check); the leader's expiry comes from anywhere.
			r.Err = fmt.Errorf("%w: session %#x is connected to replica %d, not %d", mwzookeeper.ErrSessionMoved, t.session, sess.owner, t.proposer)
			r.Zxid = c.zxid
			return r
		}
		sess.seen = time.Since(s.start) // a write is activity too (A5.3)
	}
	switch t.op {
	case mwzookeeper.OpCreate, mwzookeeper.OpCreate2, mwzookeeper.OpDelete, mwzookeeper.OpSetData, mwzookeeper.OpCheck,
		mwzookeeper.OpCreateContainer, mwzookeeper.OpCreateTTL, mwzookeeper.OpSetACL, mwzookeeper.OpDeleteContainer:
		r.Path, r.Stat, r.Err = s.applyOp(c, &t.rec)
	case mwzookeeper.OpMulti:
		r.Results, r.Err = s.applyMulti(c, t.ops)
	case mwzookeeper.OpCreateSession:
		r = s.applyCreateSession(c, t)
	case mwzookeeper.OpCloseSession:
		s.applyCloseSession(c, t.session, t.expired)
	}
	if r.Err == nil {
		s.fire(c.events) // before the reply is given (A5.x watches)
	}
	r.Zxid = c.zxid
	return r
}

// fire sends the watch events of an applied write to the sessions that
// watch them on this replica (watches).
func (s *Service) fire(evs []mwzookeeper.WatchEvent) {
	for _, ev := range evs {
		s.watches.Fire(s.host, ev)
	}
}

// applyOp applies one tree operation; on error nothing changed (A5.1).
func (s *Service) applyOp(c *applyCtx, o *mwzookeeper.Op) (string, mwzookeeper.MWStat, error) {
	switch o.Op {
	case mwzookeeper.OpCreate, mwzookeeper.OpCreate2, mwzookeeper.OpCreateContainer, mwzookeeper.OpCreateTTL:
		return s.create(c, o)
	case mwzookeeper.OpDelete:
		return "", mwzookeeper.MWStat{}, s.delete(c, o)
	case mwzookeeper.OpSetData:
		st, err := s.setData(c, o)
		return "", st, err
	case mwzookeeper.OpCheck:
		_, err := s.permitted(c, o.Path, o.Version, mwzookeeper.PermRead)
		return "", mwzookeeper.MWStat{}, err
	case mwzookeeper.OpSetACL:
		st, err := s.setACL(c, o)
		return "", st, err
	case mwzookeeper.OpDeleteContainer:
		return "", mwzookeeper.MWStat{}, s.deleteContainer(c, o)
	}
	return "", mwzookeeper.MWStat{}, fmt.Errorf("%w: op %s in a multi", mwzookeeper.ErrBadArguments, o.Op)
}

// create follows ZooKeeper's checks in its order: mode and TTL, path,
// data size, the ACL (InvalidACL), parent (NoNode), the parent's CREATE
// permission (NoAuth), the name (NodeExists), an ephemeral parent (A5.1,
// A5.3, sequential nodes; ACLs, containers and TTL nodes beyond the sheet).
func (s *Service) create(c *applyCtx, o *mwzookeeper.Op) (string, mwzookeeper.MWStat, error) {
	var none mwzookeeper.MWStat
	if c.format == 2 && o.Mode >= mwzookeeper.Container && o.Mode <= mwzookeeper.PersistentSeqTTL {
		// Format 2 refused these modes at apply: its logs replay as they ran.
		return "", none, fmt.Errorf("%w: create mode %d at %q", mwzookeeper.ErrUnimplemented, o.Mode, o.Path)
	}
	if err := checkCreateMode(o); err != nil {
		return "", none, err
	}
	if err := validWritePath(o.Path, o.Mode.IsSequential(), c.format); err != nil {
		return "", none, err
	}
	if len(o.Data) > mwzookeeper.MaxData {
		return "", none, fmt.Errorf("%w: %d bytes of data for %q, at most %d", mwzookeeper.ErrBadArguments, len(o.Data), o.Path, mwzookeeper.MaxData)
	}
	if o.Mode.IsEphemeral() && c.session == 0 {
		return "", none, fmt.Errorf("%w: ephemeral %q needs a session", mwzookeeper.ErrBadArguments, o.Path)
	}
	acl, err := nodeACL(c, o)
	if err != nil {
		return "", none, err
	}
	// Parent works for a sequential "/queue/" too: its parent is "/queue".
	parentPath := mwzookeeper.Parent(o.Path)
	parent := s.tree.get(parentPath)
	if parent == nil {
		return "", none, fmt.Errorf("%w: parent %q of %q", mwzookeeper.ErrNoNode, parentPath, o.Path)
	}
	if err := mwzookeeper.CheckACL(parent.acl, c.auth, mwzookeeper.PermCreate, parentPath); err != nil {
		return "", none, err
	}
	path := o.Path
	if o.Mode.IsSequential() {
		path = mwzookeeper.SequentialName(o.Path, parent.stat.Cversion)
	}
	if err := systemNode(path, c.format, true); err != nil {
		return "", none, err
	}
	if s.tree.get(path) != nil {
		return "", none, fmt.Errorf("%w: %q", mwzookeeper.ErrNodeExists, path)
	}
	if mwzookeeper.IsSessionOwner(parent.stat.EphemeralOwner) {
		return "", none, fmt.Errorf("%w: parent %q of %q", mwzookeeper.ErrNoChildrenForEphemerals, parentPath, path)
	}
	n := &znode{data: bytes.Clone(o.Data), acl: acl}
	n.stat = mwzookeeper.MWStat{Czxid: c.zxid, Mzxid: c.zxid, Pzxid: c.zxid, Ctime: c.ts, Mtime: c.ts}
	n.stat.EphemeralOwner = extendedOwner(o) // containers and TTL nodes (beyond the sheet); 0 for the others
	if n.stat.EphemeralOwner == 0 && o.Mode.IsEphemeral() {
		n.stat.EphemeralOwner = c.session
	}
	c.undo = append(c.undo, change{kind: created, path: path, parentStat: parent.stat})
	s.tree.link(path, n)
	parent.stat.Cversion++
	parent.stat.Pzxid = c.zxid
	c.event(mwzookeeper.EventNodeCreated, path, n.acl)
	c.event(mwzookeeper.EventNodeChildrenChanged, parentPath, parent.acl)
	return path, n.stat, nil
}

// existing returns the node at path if it exists with version (-1: any)
// (A5.1; paths.go says which paths are valid).
func (s *Service) existing(path string, version int32) (*znode, error) {
	if err := validPath(path, false); err != nil {
		return nil, err
	}
	n := s.tree.get(path)
	if n == nil {
		return nil, fmt.Errorf("%w: %q", mwzookeeper.ErrNoNode, path)
	}
	if version != -1 && version != n.stat.Version {
		return nil, fmt.Errorf("%w: %q has version %d, not %d", mwzookeeper.ErrBadVersion, path, n.stat.Version, version)
	}
	return n, nil
}

// delete removes a childless node. The path is checked first (the
// sheet's BadArguments, where ZooKeeper looks for the parent first), then
// in ZooKeeper's order: system nodes ("/", "/zookeeper" and the two it
// keeps below it) cannot go, the parent (NoNode), its DELETE permission
// (NoAuth), the node (NoNode), BadVersion, NotEmpty (A5.1; ACLs beyond
// the sheet).
func (s *Service) delete(c *applyCtx, o *mwzookeeper.Op) error {
	if err := validPath(o.Path, false); err != nil {
		return err
	}
	if err := systemNode(o.Path, c.format, false); err != nil {
		return err
	}
	parentPath := mwzookeeper.Parent(o.Path)
	parent := s.tree.get(parentPath)
	if parent == nil {
		return fmt.Errorf("%w: %q", mwzookeeper.ErrNoNode, o.Path)
	}
	if err := mwzookeeper.CheckACL(parent.acl, c.auth, mwzookeeper.PermDelete, parentPath); err != nil {
		return err
	}
	n, err := s.existing(o.Path, -1)
	if err != nil {
		return err
	}
	if o.Version != -1 && o.Version != n.stat.Version {
		return fmt.Errorf("%w: %q has version %d, not %d", mwzookeeper.ErrBadVersion, o.Path, n.stat.Version, o.Version)
	}
	if len(n.children) > 0 {
		return fmt.Errorf("%w: %q has %d children", mwzookeeper.ErrNotEmpty, o.Path, len(n.children))
	}
	s.deleteNode(c, o.Path)
	return nil
}

// deleteNode removes the childless node at path, updates its parent's
// cversion and pzxid, and records the events and the undo (A5.1).
func (s *Service) deleteNode(c *applyCtx, path string) {
	parentPath := mwzookeeper.Parent(path)
	parent := s.tree.get(parentPath)
	c.undo = append(c.undo, change{kind: deleted, path: path, parentStat: parent.stat})
	gone := s.tree.unlink(path)
	c.undo[len(c.undo)-1].node = gone
	parent.stat.Cversion++
	parent.stat.Pzxid = c.zxid
	c.event(mwzookeeper.EventNodeDeleted, path, gone.acl)
	c.event(mwzookeeper.EventNodeChildrenChanged, parentPath, parent.acl)
}

// setData replaces a node's data: version++, mzxid and mtime (A5.1, A5.4);
// it needs WRITE on the node (beyond the sheet).
func (s *Service) setData(c *applyCtx, o *mwzookeeper.Op) (mwzookeeper.MWStat, error) {
	n, err := s.permitted(c, o.Path, o.Version, mwzookeeper.PermWrite)
	if err != nil {
		return mwzookeeper.MWStat{}, err
	}
	if len(o.Data) > mwzookeeper.MaxData {
		return mwzookeeper.MWStat{}, fmt.Errorf("%w: %d bytes of data for %q, at most %d", mwzookeeper.ErrBadArguments, len(o.Data), o.Path, mwzookeeper.MaxData)
	}
	c.undo = append(c.undo, change{kind: changed, path: o.Path, oldStat: n.stat})
	c.undo[len(c.undo)-1].oldData = s.tree.setData(n, bytes.Clone(o.Data))
	n.stat.Version++
	n.stat.Mzxid = c.zxid
	n.stat.Mtime = c.ts
	c.event(mwzookeeper.EventNodeDataChanged, o.Path, n.acl)
	return n.stat, nil
}

// undo reverses the recorded changes, newest first, and forgets the
// events: a failed multi leaves no trace.
func (s *Service) undo(c *applyCtx) {
	for i := len(c.undo) - 1; i >= 0; i-- {
		u := &c.undo[i]
		switch u.kind {
		case created:
			s.tree.unlink(u.path)
			s.tree.get(mwzookeeper.Parent(u.path)).stat = u.parentStat
		case deleted:
			s.tree.link(u.path, u.node)
			s.tree.get(mwzookeeper.Parent(u.path)).stat = u.parentStat
		case changed:
			n := s.tree.get(u.path)
			s.tree.setData(n, u.oldData)
			n.stat = u.oldStat
		}
	}
	c.undo = c.undo[:0]
	c.events = c.events[:0]
}
