package aufgabe5

import (
	"bytes"
	"testing"

	"zablab/mwzookeeper"
	"zablab/zab"
)

// TestNullDataStaysApartFromEmptyData: ZooKeeper keeps a node created
// without data (null: zkCli prints "null") apart from one created with
// empty data. The null-or-empty distinction survives the replicated
// message (create, setData, multi) and the snapshot.
func TestNullDataStaysApartFromEmptyData(t *testing.T) {
	s, cb := offline(t)
	deliver(cb, &req{Op: mwzookeeper.OpCreate, Path: "/null"}, 2, 1)
	deliver(cb, &req{Op: mwzookeeper.OpCreate, Path: "/empty", Data: []byte{}}, 3, 2)
	deliver(cb, &req{Op: mwzookeeper.OpCreate, Path: "/set", Data: []byte("x")}, 4, 3)
	deliver(cb, &req{Op: mwzookeeper.OpSetData, Path: "/set", Version: -1}, 5, 4)
	deliver(cb, &req{Op: mwzookeeper.OpMulti, Ops: []mwzookeeper.Op{
		{Op: mwzookeeper.OpCreate, Path: "/mnull"}, {Op: mwzookeeper.OpCreate, Path: "/mempty", Data: []byte{}}}}, 6, 5)
	want := map[string]bool{"/null": true, "/empty": false, "/set": true, "/mnull": true, "/mempty": false} // null?
	check := func(when string) {
		t.Helper()
		for path, null := range want {
			s.mu.Lock()
			r := s.read(&req{Op: mwzookeeper.OpGetData, Path: path})
			s.mu.Unlock()
			if r.Err != nil {
				t.Fatalf("%s: getData %s: %v", when, path, r.Err)
			}
			if (r.Data == nil) != null || len(r.Data) != 0 {
				t.Errorf("%s: getData %s = %#v, want null %v", when, path, r.Data, null)
			}
		}
	}
	check("applied")
	var snap bytes.Buffer
	if err := s.writeState(&snap); err != nil {
		t.Fatal(err)
	}
	r, rcb := offline(t)
	if err := rcb.SetState(bytes.NewReader(snap.Bytes()), zab.TxnCookie{Zxid: 6}); err != nil {
		t.Fatal(err)
	}
	s = r
	check("restored from a snapshot")
}
