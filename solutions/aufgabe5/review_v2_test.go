package aufgabe5

import (
	"encoding/binary"
	"testing"

	"zablab/mwzookeeper"
	"zablab/zab"
)

// appendRequestV2 is 7f58927's appendRequest for create and multi: the
// txn format 2 that logs written before ACLs hold.
func appendRequestV2(h header, req *mwzookeeper.Request) []byte {
	b := []byte{2, kindRequest}
	b = binary.AppendUvarint(b, h.proposer)
	b = binary.LittleEndian.AppendUint64(b, h.incarnation)
	b = binary.AppendUvarint(b, h.reqno)
	b = binary.AppendVarint(b, req.Session)
	b = binary.AppendVarint(b, int64(req.Op))
	opV2 := func(b []byte, o *mwzookeeper.Op) []byte {
		b = binary.AppendVarint(b, int64(o.Op))
		b = appendString(b, o.Path)
		b = append(b, 1) // null data
		b = appendBytes(b, nil)
		b = binary.AppendVarint(b, int64(o.Version))
		return binary.AppendVarint(b, int64(o.Mode))
	}
	switch req.Op {
	case mwzookeeper.OpCreate, mwzookeeper.OpCreate2:
		b = opV2(b, &mwzookeeper.Op{Op: req.Op, Path: req.Path, Mode: req.Mode})
	case mwzookeeper.OpMulti:
		b = binary.AppendUvarint(b, uint64(len(req.Ops)))
		for i := range req.Ops {
			b = opV2(b, &req.Ops[i])
		}
	}
	return b
}

// TestFormat2LogReplaysAsBefore: a format 2 log (before ACLs) must replay
// to the state it made. At 7f58927 a create with the container mode was
// proposed unchecked and refused at apply (Unimplemented), so such logs
// exist; replayed now, the same entries make containers: a restarted
// replica's tree differs from the one its peers and its clients saw, and
// a new replica catching up from an old log disagrees with an old one.
func TestFormat2LogReplaysAsBefore(t *testing.T) {
	s, cb := offline(t)
	msgs := [][]byte{
		appendRequestV2(header{1, 7, 1}, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Path: "/c", Mode: mwzookeeper.Container}),
		appendRequestV2(header{1, 7, 2}, &mwzookeeper.Request{Op: mwzookeeper.OpMulti, Ops: []mwzookeeper.Op{
			{Op: mwzookeeper.OpCreate, Path: "/m", Mode: mwzookeeper.Container}}}),
		appendRequestV2(header{1, 7, 3}, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Path: "/p"}),
	}
	for i, m := range msgs {
		var tx txn
		if err := decodeTxn(m, &tx); err != nil {
			t.Fatalf("format 2 message %d does not decode: %v", i, err)
		}
		cb.Deliver(zab.TxnCookie{Zxid: zab.Zxid(i + 2), Proposer: 1, Timestamp: int64(i+2) * 1e6}, m)
	}
	if s.tree.get("/p") == nil {
		t.Fatalf("the plain create of the format 2 log was not applied")
	}
	for _, p := range []string{"/c", "/m"} {
		if n := s.tree.get(p); n != nil {
			t.Errorf("format 2 create of %s with the container mode (Unimplemented at 7f58927) now makes a node, owner %#x", p, uint64(n.stat.EphemeralOwner))
		}
	}
}
