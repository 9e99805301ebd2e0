package aufgabe5

import (
	"testing"

	"zablab/mwzookeeper"
	"zablab/zab"
)

// TestPathsBeyondBMPByTheirFormat: a create whose name has a character
// beyond U+FFFF makes its node when delivered in txn format 3, as older
// logs hold it (every replica and every replay decide alike), and is
// refused in format 4, as ZooKeeper refuses it; a node of such a name in
// a state transfer is taken.
func TestPathsBeyondBMPByTheirFormat(t *testing.T) {
	s, cb := offline(t)
	for i, c := range []struct {
		format byte
		path   string
		made   bool
	}{{3, "/old-\U0001F600", true}, {txnVersion, "/new-\U0001F600", false}} {
		msg := appendRequest(nil, header{1, 7, uint64(i + 1)}, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Path: c.path}, nil, false)
		msg[0] = c.format // the version byte comes first
		cb.Deliver(zab.TxnCookie{Zxid: zab.Zxid(i + 2), Proposer: 1, Timestamp: int64(i+2) * 1e6}, msg)
		s.mu.Lock()
		made := s.tree.get(c.path) != nil
		s.mu.Unlock()
		if made != c.made {
			t.Errorf("format %d create of %q made a node: %v, want %v", c.format, c.path, made, c.made)
		}
	}
	if err := validApplied("/old-\U0001F600", false, 0); err != nil {
		t.Errorf("a state transfer refuses a node it took before: %v", err)
	}
}
