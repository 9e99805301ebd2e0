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
	if err := validPath("/old-\U0001F600", false); err != nil {
		t.Errorf("a state transfer refuses a node it took before: %v", err)
	}
}

// TestOldNonBMPNodeCanBeDeleted: a node whose name has a character
// beyond U+FFFF, made by a format-3 txn (an old log, or a snapshot: "logs
// and snapshots may hold such nodes"), must stay removable once the
// replica writes format 4. Judging every format-4 delete by the strict
// rule (a review's failing test) left such a node undeletable, and
// (NotEmpty) its parent with it.
func TestOldNonBMPNodeCanBeDeleted(t *testing.T) {
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

// TestOldLogDeleteOfZookeeperConfigReplaysAsItRan: before the change a
// delete refused only "/" and "/zookeeper"; a node /zookeeper/config (or
// /zookeeper/quota) a client had made could be deleted. Refusing those two
// paths for every txn format (a review's failing test) made a format-3 log
// replay differently from how it ran: the node deleted then stayed, and a
// replica that restarts from its log would disagree with one that took a
// snapshot after the delete.
func TestOldLogDeleteOfZookeeperConfigReplaysAsItRan(t *testing.T) {
	for _, p := range []string{"/zookeeper/config", "/zookeeper/quota"} {
		s, cb := offline(t)
		send := func(zxid int64, req *mwzookeeper.Request) {
			msg := appendRequest(nil, header{1, 7, uint64(zxid)}, req, nil, false)
			msg[0] = 3 // a log written before the change
			cb.Deliver(zab.TxnCookie{Zxid: zab.Zxid(zxid), Proposer: 1, Timestamp: zxid * 1e6}, msg)
		}
		send(2, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Path: p})
		s.mu.Lock()
		made := s.tree.get(p) != nil
		s.mu.Unlock()
		if !made {
			t.Fatalf("format 3 create of %s made no node", p)
		}
		send(3, &mwzookeeper.Request{Op: mwzookeeper.OpDelete, Path: p, Version: -1})
		s.mu.Lock()
		still := s.tree.get(p) != nil
		s.mu.Unlock()
		if still {
			t.Errorf("format 3 delete of %s (which the code that wrote the log applied) left the node: the old log replays differently", p)
		}
	}
}
