package aufgabe5

import (
	"fmt"

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
