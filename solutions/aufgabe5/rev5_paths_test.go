package aufgabe5

import (
	"testing"

	"zablab/mwzookeeper"
	"zablab/zab"
)

// TestRev5OldNonBMPNodeCanBeDeleted: a node whose name has a character
// beyond U+FFFF, made by a format-3 txn (an old log, or a snapshot: "logs
// and snapshots may hold such nodes"), must stay removable once the
// replica writes format 4. The change judges every format-4 delete by the
// strict rule, so such a node can never be deleted, nor (NotEmpty) its
// parent: the old tree is stuck for good.
func TestRev5OldNonBMPNodeCanBeDeleted(t *testing.T) {
	s, cb := offline(t)
	send := func(format byte, zxid int64, req *mwzookeeper.Request) {
		msg := appendRequest(nil, header{1, 7, uint64(zxid)}, req, nil, false)
		msg[0] = format
		cb.Deliver(zab.TxnCookie{Zxid: zab.Zxid(zxid), Proposer: 1, Timestamp: zxid * 1e6}, msg)
	}
	const kid = "/p/old-\U0001F600"
	send(3, 2, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Path: "/p"})
	send(3, 3, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Path: kid})
	has := func(p string) bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.tree.get(p) != nil
	}
	if !has(kid) {
		t.Fatalf("format 3 did not make %q", kid)
	}
	send(txnVersion, 4, &mwzookeeper.Request{Op: mwzookeeper.OpDelete, Path: kid, Version: -1})
	send(txnVersion, 5, &mwzookeeper.Request{Op: mwzookeeper.OpDelete, Path: "/p", Version: -1})
	if has(kid) || has("/p") {
		t.Errorf("after format-%d deletes of %q and /p: %q still there: %v, /p still there: %v (undeletable)",
			txnVersion, kid, kid, has(kid), has("/p"))
	}
}
