package aufgabe5

import (
	"fmt"
	"strings"

	"zablab/mwzookeeper"
)

// read executes a read on this replica's applied state, at once, and
// leaves the watches it asks for while it executes, so no write can slip
// between the answer and the watch (A5.1, A5.6). s.mu must be held.
func (s *Service) read(req *mwzookeeper.Request) *mwzookeeper.Response {
	// TODO(A5.1): execute a read on the applied state, at once: exists,
	// getData, getChildren(2) and getACL with readNode; ping answers
	// nothing; anything else is ErrUnimplemented. A session that does not
	// exist gets ErrSessionExpired. The Response carries s.lastZxid.
	// TODO(A5.6): setWatches re-registers a reconnecting client's watches
	// (s.watches.SetWatches with s.tree.lookup).
	return &mwzookeeper.Response{Zxid: s.lastZxid, Err: fmt.Errorf("%w: TODO(A5.1) in reads.go: Service.read: %s", mwzookeeper.ErrUnimplemented, req.Op)}
}

// readNode answers exists, getData, getChildren(2) and getACL (stat only:
// the service has no ACLs) (A5.1, A5.6).
func (s *Service) readNode(req *mwzookeeper.Request, r *mwzookeeper.Response) error {
	// TODO(A5.1): the node at the valid path (ErrNoNode), its stat, for
	// getData a copy of its data, for getChildren its children sorted.
	// TODO(A5.6): leave the watch asked for (req.Watch) while reading: a
	// data watch for exists and getData (exists also on a missing node),
	// a child watch for getChildren.
	return fmt.Errorf("%w: TODO(A5.1) in reads.go: Service.readNode: %s %q", mwzookeeper.ErrUnimplemented, req.Op, req.Path)
}

// readBeyond answers the reads ZooKeeper 3.8 has beyond the sheet, as
// its FinalRequestProcessor does: multiRead (getData and getChildren,
// each with its own result or error), getEphemerals (the session's ephemeral
// nodes under a prefix, a plain string prefix: "/a" also matches "/ab";
// one that is blank or "/" after Java's trim means all) and
// getAllChildrenNumber (every node below a path, which is not validated:
// a path that names no node is NoNode). Not part of Aufgabe 5.
func (s *Service) readBeyond(req *mwzookeeper.Request, r *mwzookeeper.Response) error {
	if req.Op == mwzookeeper.OpMultiRead {
		// Each read on its own, at this one state: one may fail and the
		// others answer.
		for _, o := range req.Ops {
			sub := &mwzookeeper.Request{Op: o.Op, Session: req.Session, Path: o.Path, Watch: o.Watch}
			var sr mwzookeeper.Response
			// ZooKeeper looks a multiRead's path up unchecked: a bad one
			// names no node.
			err := fmt.Errorf("%w: %q", mwzookeeper.ErrNoNode, o.Path)
			if mwzookeeper.ValidatePath(o.Path, false) == nil {
				err = s.readNode(sub, &sr)
			}
			r.Results = append(r.Results, mwzookeeper.OpResult{Op: o.Op, Err: err, Stat: sr.Stat, Data: sr.Data, Children: sr.Children})
		}
		return nil
	}
	if req.Op == mwzookeeper.OpGetEphemerals {
		// Java sees the prefix and the paths as decoded strings: broken
		// UTF-8 becomes U+FFFD on both sides.
		prefix := strings.ToValidUTF8(req.Path, "\uFFFD")
		trimmed := strings.TrimFunc(prefix, func(r rune) bool { return r <= ' ' })
		for _, p := range s.tree.ephemeralsOf(req.Session) {
			if trimmed == "" || trimmed == "/" || strings.HasPrefix(strings.ToValidUTF8(p, "\uFFFD"), prefix) {
				r.Children = append(r.Children, p)
			}
		}
		return nil
	}
	if s.tree.get(req.Path) == nil {
		return fmt.Errorf("%w: %q", mwzookeeper.ErrNoNode, req.Path)
	}
	below := req.Path + "/"
	if req.Path == "/" {
		below = "/"
	}
	for p := range s.tree.nodes {
		if p != req.Path && strings.HasPrefix(p, below) {
			r.Count++
		}
	}
	return nil
}
