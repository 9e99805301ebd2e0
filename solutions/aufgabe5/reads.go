package aufgabe5

import (
	"bytes"
	"fmt"
	"strings"

	"zablab/mwzookeeper"
)

// read executes a read on this replica's applied state, at once, and
// leaves the watches it asks for while it executes, so no write can slip
// between the answer and the watch (A5.1; watches). s.mu must be held.
func (s *Service) read(req *mwzookeeper.Request) *mwzookeeper.Response {
	r := &mwzookeeper.Response{Zxid: s.lastZxid}
	if req.Session != 0 && s.sessions[req.Session] == nil {
		r.Err = fmt.Errorf("%w: session %#x", mwzookeeper.ErrSessionExpired, req.Session)
		return r
	}
	switch req.Op {
	case mwzookeeper.OpExists, mwzookeeper.OpGetData, mwzookeeper.OpGetChildren, mwzookeeper.OpGetChildren2, mwzookeeper.OpGetACL:
		r.Err = s.readNode(req, r)
	case mwzookeeper.OpGetEphemerals, mwzookeeper.OpGetAllChildrenNumber, mwzookeeper.OpMultiRead:
		r.Err = s.readBeyond(req, r)
	case mwzookeeper.OpPing:
	case mwzookeeper.OpSetWatches, mwzookeeper.OpSetWatches2:
		if req.Session != 0 {
			s.watches.SetWatches(s.host, req, s.tree.lookup, s.lastZxid)
		}
	default:
		r.Err = fmt.Errorf("%w: %s", mwzookeeper.ErrUnimplemented, req.Op)
	}
	return r
}

// readNode answers exists, getData, getChildren(2) and getACL (stat only:
// the service has no ACLs) (A5.1).
func (s *Service) readNode(req *mwzookeeper.Request, r *mwzookeeper.Response) error {
	if err := mwzookeeper.ValidatePath(req.Path, false); err != nil {
		return err
	}
	n := s.tree.get(req.Path)
	watch := req.Watch && req.Session != 0
	if n == nil {
		if watch && req.Op == mwzookeeper.OpExists {
			// exists on a missing node waits for its creation.
			s.watches.Add(mwzookeeper.DataWatch, req.Path, req.Session)
		}
		return fmt.Errorf("%w: %q", mwzookeeper.ErrNoNode, req.Path)
	}
	r.Stat = n.stat
	switch req.Op {
	case mwzookeeper.OpExists, mwzookeeper.OpGetData:
		if req.Op == mwzookeeper.OpGetData {
			r.Data = bytes.Clone(n.data)
		}
		if watch {
			s.watches.Add(mwzookeeper.DataWatch, req.Path, req.Session)
		}
	case mwzookeeper.OpGetChildren, mwzookeeper.OpGetChildren2:
		r.Children = n.sortedChildren()
		if watch {
			s.watches.Add(mwzookeeper.ChildWatch, req.Path, req.Session)
		}
	}
	return nil
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
