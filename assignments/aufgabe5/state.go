package aufgabe5

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"zablab/mwzookeeper"
	"zablab/zab"
)

// The snapshot format (A5.2), all integers varints:
//
//	"MWZK" version lastZxid
//	sessionCount {id timeout password owner}   sorted by id
//	nodeCount    {path stat null data acl}     "/" first, then depth first, children sorted
//	crc32 (IEEE, 4 bytes little endian) of everything before
//
// null is a byte, 1 for null data and 0 for data (empty or not): ZooKeeper
// keeps them apart. acl is the node's ACL as the replicated message codes
// one (appendACL; beyond the sheet): version 2 snapshots, from before
// ACLs, have none, and their nodes are open to anyone. owner is 0 for a session that never reconnected.
//
// Sorted sessions and children make the bytes a function of the state
// alone, so equal states give equal snapshots: the determinism tests
// compare them.

const (
	stateMagic   = "MWZK"
	stateVersion = 3
	// oldestStateVersion is the oldest snapshot still read.
	oldestStateVersion = 2
)

var errBadState = errors.New("aufgabe5: malformed state snapshot")

// writeState writes the replicated state. Only the goroutine that
// changes the state may call it, or the caller must hold s.mu (A5.2).
func (s *Service) writeState(w io.Writer) error {
	// TODO(A5.2): write the whole replicated state (the tree, the sessions
	// without their local seen time, lastZxid) so that readState can
	// rebuild it: Zab takes snapshots with it and sends them to replicas
	// that are far behind. Equal states must give equal bytes (sort).
	return fmt.Errorf("%w: TODO(A5.2) in state.go: Service.writeState", mwzookeeper.ErrUnimplemented)
}

// writeNode writes n and, depth first in name order, its descendants (A5.2).
func (s *Service) writeNode(w *bufio.Writer, path string, n *znode, b []byte) error {
	// TODO(A5.2): write n and its descendants.
	return fmt.Errorf("%w: TODO(A5.2) in state.go: Service.writeNode: %q", mwzookeeper.ErrUnimplemented, path)
}

// readState replaces the whole replicated state by a snapshot; an empty
// reader is the initial state. A bad snapshot changes nothing (A5.2).
func (s *Service) readState(r io.Reader, last zab.TxnCookie) error {
	// TODO(A5.2): replace the whole replicated state with the snapshot in r
	// (decodeState); an empty r is the initial state. A bad snapshot
	// changes nothing. Restored sessions get a fresh timeout (seen = now).
	return fmt.Errorf("%w: TODO(A5.2) in state.go: Service.readState: at %s", mwzookeeper.ErrUnimplemented, last.Zxid)
}

// decodeState parses and checks a snapshot (A5.2).
func decodeState(all []byte) (*tree, map[int64]*session, int64, error) {
	// TODO(A5.2): parse and check a snapshot written by writeState.
	return nil, nil, 0, fmt.Errorf("%w: TODO(A5.2) in state.go: decodeState", mwzookeeper.ErrUnimplemented)
}

// decodeNode reads one node and links it under its parent, read before (A5.2).
func decodeNode(d *decoder, t *tree, root bool) {
	// TODO(A5.2): read one node and link it under its parent.
	d.fail("TODO(A5.2) in state.go: decodeNode")
}
