package aufgabe5

import (
	"testing"

	"zablab/mwzookeeper"
	"zablab/zab"
)

// TestRev5OldLogDeleteOfZookeeperConfigReplaysAsItRan: before the change a
// delete refused only "/" and "/zookeeper"; a node /zookeeper/config (or
// /zookeeper/quota) a client had made could be deleted. The change refuses
// those two paths for every txn format, so a format-3 log replays
// differently from how it ran: the node deleted then stays now, and a
// replica that restarts from its log disagrees with one that took a
// snapshot after the delete. (paths.go keeps the old rule for old formats
// for exactly this reason; the delete's new system-node rule does not.)
func TestRev5OldLogDeleteOfZookeeperConfigReplaysAsItRan(t *testing.T) {
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
