package aufgabe5

import (
	"fmt"
	"slices"
	"strings"

	"zablab/mwzookeeper"
)

// read executes a read on this replica's applied state, at once, and
// leaves the watches it asks for while it executes, so no write can slip
// between the answer and the watch (A5.1, A5.6). s.mu must be held.
func (s *Service) read(req *mwzookeeper.Request) *mwzookeeper.Response {
	// TODO(A5.1): execute a read on the applied state, at once: exists,
	// getData, getChildren(2) and getACL (its stat; a node without an ACL
	// is open to anyone) with readNode; ping answers nothing; anything
	// else is ErrUnimplemented (optional, no points: multiRead,
	// getEphemerals and getAllChildrenNumber can go to the provided
	// readBeyond).
	// A session that does not
	// exist gets ErrSessionExpired. The Response carries s.lastZxid.
	// TODO(A5.6): setWatches re-registers a reconnecting client's watches
	// (s.watches.SetWatches with s.tree.lookup).
	return &mwzookeeper.Response{Zxid: s.lastZxid, Err: fmt.Errorf("%w: TODO(A5.1) in reads.go: Service.read: %s", mwzookeeper.ErrUnimplemented, req.Op)}
}

// readNode answers exists, getData, getChildren(2) and getACL (A5.1;
// ACLs beyond the sheet).
func (s *Service) readNode(req *mwzookeeper.Request, r *mwzookeeper.Response) error {
	// TODO(A5.1): the node at the valid path (ErrNoNode), its stat, for
	// getData a copy of its data, for getChildren its children sorted.
	// TODO(A5.6): leave the watch asked for (req.Watch) while reading: a
	// data watch for exists and getData (exists also on a missing node),
	// a child watch for getChildren and getChildren2.
	return fmt.Errorf("%w: TODO(A5.1) in reads.go: Service.readNode: %s %q", mwzookeeper.ErrUnimplemented, req.Op, req.Path)
}

// readBeyond answers the reads ZooKeeper 3.8 has beyond the sheet, as
// its FinalRequestProcessor does. Not part of Aufgabe 5.
func (s *Service) readBeyond(req *mwzookeeper.Request, r *mwzookeeper.Response) error {
	switch req.Op {
	case mwzookeeper.OpMultiRead:
		r.Results = s.multiRead(req)
	case mwzookeeper.OpGetEphemerals:
		r.Children = s.ephemeralsUnder(req.Session, req.Path)
	case mwzookeeper.OpAddWatch, mwzookeeper.OpRemoveWatches, mwzookeeper.OpCheckWatches:
		return s.watchOp(req)
	default: // getAllChildrenNumber
		n := s.tree.get(req.Path)
		if n == nil { // the path is not validated: a bad one names no node
			return fmt.Errorf("%w: %q", mwzookeeper.ErrNoNode, req.Path)
		}
		if err := mwzookeeper.CheckACL(n.acl, req.Auth, mwzookeeper.PermRead, req.Path); err != nil {
			return err
		}
		r.Count = s.countBelow(req.Path)
	}
	return nil
}

// watchOp answers addWatch, removeWatches and checkWatches on this
// replica's watch table, as ZooKeeper 3.8.0 does: no path is checked, and
// a removal sends no event (the Java client makes DataWatchRemoved and
// ChildWatchRemoved itself). A request without a session leaves nothing
// and finds nothing. Not part of Aufgabe 5.
func (s *Service) watchOp(req *mwzookeeper.Request) error {
	switch {
	case req.Op == mwzookeeper.OpAddWatch && req.Session == 0:
		return nil
	case req.Op == mwzookeeper.OpAddWatch:
		return s.watches.AddWatch(req.WatchMode, req.Path, req.Session)
	case req.Op == mwzookeeper.OpRemoveWatches:
		return s.watches.Remove(req.WatcherType, req.Path, req.Session)
	}
	return s.watches.Check(req.WatcherType, req.Path, req.Session)
}

// multiRead runs getData and getChildren each on its own, at this one
// state: one may fail and the others answer. ZooKeeper looks a
// multiRead's path up unchecked: a bad one names no node.
func (s *Service) multiRead(req *mwzookeeper.Request) []mwzookeeper.OpResult {
	out := make([]mwzookeeper.OpResult, 0, len(req.Ops))
	for _, o := range req.Ops {
		sub := &mwzookeeper.Request{Op: o.Op, Session: req.Session, Path: o.Path, Auth: req.Auth}
		var sr mwzookeeper.Response
		var err error
		if validPath(o.Path, false) != nil {
			err = fmt.Errorf("%w: %q", mwzookeeper.ErrNoNode, o.Path)
		} else {
			err = s.readNode(sub, &sr)
		}
		out = append(out, mwzookeeper.OpResult{Op: o.Op, Err: err, Stat: sr.Stat, Data: sr.Data, Children: sr.Children})
	}
	return out
}

// ephemeralsUnder is getEphemerals: session's ephemeral nodes under a
// plain string prefix ("/a" also matches "/ab"); one that is blank or "/"
// after Java's trim means all. Java sees the prefix and the paths as
// decoded strings: broken UTF-8 becomes U+FFFD on both sides.
func (s *Service) ephemeralsUnder(session int64, prefix string) []string {
	prefix = strings.ToValidUTF8(prefix, "\uFFFD")
	trimmed := strings.TrimFunc(prefix, func(r rune) bool { return r <= ' ' })
	var out []string
	for _, p := range s.tree.ephemeralsOf(session) {
		if trimmed == "" || trimmed == "/" || strings.HasPrefix(strings.ToValidUTF8(p, "\uFFFD"), prefix) {
			out = append(out, p)
		}
	}
	return out
}

// countBelow is getAllChildrenNumber: every node below path.
func (s *Service) countBelow(path string) int32 {
	below := path + "/"
	if path == "/" {
		below = "/"
	}
	var n int32
	for p := range s.tree.nodes {
		if p != path && strings.HasPrefix(p, below) {
			n++
		}
	}
	return n
}

// readAllowed is ZooKeeper's check of a read: getData and getChildren need
// READ, getACL READ or ADMIN, exists nothing (beyond the sheet).
func readAllowed(req *mwzookeeper.Request, n *znode) error {
	switch req.Op {
	case mwzookeeper.OpGetData, mwzookeeper.OpGetChildren, mwzookeeper.OpGetChildren2:
		return mwzookeeper.CheckACL(n.acl, req.Auth, mwzookeeper.PermRead, req.Path)
	case mwzookeeper.OpGetACL:
		return mwzookeeper.CheckACL(n.acl, req.Auth, mwzookeeper.PermRead|mwzookeeper.PermAdmin, req.Path)
	}
	return nil
}

// aclAsSeen is a node's ACL as getACL answers it: whole for a client with
// ADMIN, with digest hashes hidden for one without (ZooKeeper 3.8).
func aclAsSeen(req *mwzookeeper.Request, n *znode) []mwzookeeper.ACL {
	if mwzookeeper.Allowed(n.acl, req.Auth, mwzookeeper.PermAdmin) {
		return slices.Clone(n.acl)
	}
	return mwzookeeper.Redacted(n.acl)
}
