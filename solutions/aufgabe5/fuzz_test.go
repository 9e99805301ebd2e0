package aufgabe5

import (
	"bytes"
	"testing"

	"zablab/mwzookeeper"
	"zablab/zab"
)

// FuzzDeliver feeds arbitrary delivered messages to a replica with some
// state: a message that does not decode leaves the state unchanged (it is
// logged), any message never panics, and one that decodes leaves a state
// whose snapshot reads back to the same bytes.
func FuzzDeliver(f *testing.F) {
	seeds := []*mwzookeeper.Request{
		{Op: mwzookeeper.OpCreate, Session: 0, Path: "/a/b", Data: []byte("x")},
		{Op: mwzookeeper.OpDelete, Path: "/a", Version: -1},
		{Op: mwzookeeper.OpSetData, Path: "/a", Data: []byte("y"), Version: 0},
		{Op: mwzookeeper.OpMulti, Ops: []mwzookeeper.Op{{Op: mwzookeeper.OpCreate, Path: "/m"}, {Op: mwzookeeper.OpCheck, Path: "/a", Version: 3}}},
		{Op: mwzookeeper.OpCreateSession, Timeout: 1000},
		{Op: mwzookeeper.OpCloseSession, Session: 2},
	}
	for _, r := range seeds {
		f.Add(appendRequest(nil, header{1, 9, 1}, r, []byte("pw"), false))
	}
	f.Add(appendLiveness(nil, header{2, 9, 0}, []int64{2, 3}))
	f.Add([]byte{})
	f.Add([]byte{txnVersion, kindRequest, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, msg []byte) {
		s, cb := offline(t)
		deliver(cb, &mwzookeeper.Request{Op: mwzookeeper.OpCreateSession, Timeout: 1000}, 2, 1)
		deliver(cb, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Path: "/a", Data: []byte("x")}, 3, 2)
		deliver(cb, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Session: 2, Path: "/a/e", Mode: mwzookeeper.Ephemeral}, 4, 3)
		var before, after bytes.Buffer
		_ = s.writeState(&before)
		var tx txn
		bad := decodeTxn(msg, &tx) != nil
		cb.Deliver(zab.TxnCookie{Zxid: 5, Proposer: 1, Timestamp: 5e6}, msg)
		_ = s.writeState(&after)
		if bad && !bytes.Equal(before.Bytes(), after.Bytes()) {
			t.Fatalf("a rejected message changed the state")
		}
		if err := cb.SetState(bytes.NewReader(after.Bytes()), zab.TxnCookie{}); err != nil {
			t.Fatalf("the state after the message does not read back: %v", err)
		}
		var again bytes.Buffer
		_ = s.writeState(&again)
		if !bytes.Equal(again.Bytes(), after.Bytes()) {
			t.Fatalf("snapshot round trip changed the bytes")
		}
	})
}

// FuzzSetState: arbitrary snapshots are refused or read, never a panic,
// and a refused one changes nothing.
func FuzzSetState(f *testing.F) {
	s, cb := offline(f)
	deliver(cb, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Path: "/a", Data: []byte("x")}, 3, 2)
	var good bytes.Buffer
	_ = s.writeState(&good)
	f.Add(good.Bytes())
	f.Add([]byte("MWZK\x01"))
	f.Fuzz(func(t *testing.T, snap []byte) {
		s, cb := offline(t)
		deliver(cb, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Path: "/b"}, 3, 2)
		var before, after bytes.Buffer
		_ = s.writeState(&before)
		if err := cb.SetState(bytes.NewReader(snap), zab.TxnCookie{}); err != nil {
			_ = s.writeState(&after)
			if !bytes.Equal(before.Bytes(), after.Bytes()) {
				t.Fatalf("a refused snapshot changed the state")
			}
		}
	})
}

// TestSnapshotBytesAreAFunctionOfTheState: many sessions and nodes, two
// snapshots of the same state, and one of the state read back from it,
// are the same bytes.
func TestSnapshotBytesAreAFunctionOfTheState(t *testing.T) {
	s, cb := offline(t)
	z := int64(1)
	for k := 0; k < 30; k++ {
		deliver(cb, &mwzookeeper.Request{Op: mwzookeeper.OpCreateSession, Timeout: 1000}, z, 0)
		deliver(cb, &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Session: z, Path: "/e", Mode: mwzookeeper.EphemeralSequential}, z+1, 0)
		z += 2
	}
	var a, b, c bytes.Buffer
	_ = s.writeState(&a)
	_ = s.writeState(&b)
	if err := cb.SetState(bytes.NewReader(a.Bytes()), zab.TxnCookie{}); err != nil {
		t.Fatal(err)
	}
	_ = s.writeState(&c)
	if !bytes.Equal(a.Bytes(), b.Bytes()) || !bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Fatalf("snapshots of one state differ (%d, %d, %d bytes)", a.Len(), b.Len(), c.Len())
	}
	if st := s.Stats(); st.Sessions != 30 || st.Ephemerals != 30 || st.Nodes != 32 {
		t.Fatalf("after SetState: %+v", st)
	}
}
