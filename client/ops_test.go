package client_test

import (
	"bytes"
	"testing"

	"zablab/client/internal/zktest"
	"zablab/mwzookeeper"
)

func TestCourseAPI(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	a := r + "/a"

	name, err := z.Create(a, []byte("one"), false)
	if err != nil || name != a {
		t.Fatalf("create %s = %q, %v", a, name, err)
	}
	_, err = z.Create(a, nil, false)
	wantErr(t, "second create", err, mwzookeeper.ErrNodeExists, a)

	var st mwzookeeper.MWStat
	data, err := z.GetData(a, &st)
	if err != nil || string(data) != "one" {
		t.Fatalf("getData %s = %q, %v", a, data, err)
	}
	if st.Version != 0 || st.DataLength != 3 || st.Czxid == 0 || st.Czxid != st.Mzxid || st.Ctime == 0 {
		t.Fatalf("stat after create: %+v", st)
	}
	if _, err := z.GetData(a, nil); err != nil {
		t.Fatalf("getData with nil stat: %v", err)
	}

	st2, err := z.SetData(a, []byte("two"), 0)
	if err != nil || st2.Version != 1 || st2.Mzxid <= st.Mzxid || st2.Czxid != st.Czxid {
		t.Fatalf("setData version 0: %+v, %v", st2, err)
	}
	_, err = z.SetData(a, []byte("three"), 0)
	wantErr(t, "setData with a stale version", err, mwzookeeper.ErrBadVersion, a)
	if _, err := z.SetData(a, []byte("any"), -1); err != nil {
		t.Fatalf("setData version -1: %v", err)
	}

	wantErr(t, "delete with a stale version", z.Delete(a, 1), mwzookeeper.ErrBadVersion, a)
	if err := z.Delete(a, 2); err != nil {
		t.Fatalf("delete version 2: %v", err)
	}
	_, err = z.GetData(a, &st)
	wantErr(t, "getData after delete", err, mwzookeeper.ErrNoNode, a)
	wantErr(t, "delete again", z.Delete(a, -1), mwzookeeper.ErrNoNode, a)
	_, err = z.SetData(a, nil, -1)
	wantErr(t, "setData after delete", err, mwzookeeper.ErrNoNode, a)
	_, err = z.Create(r+"/x/y", nil, false)
	wantErr(t, "create without parent", err, mwzookeeper.ErrNoNode, r+"/x/y")
	if c := mwzookeeper.CodeOf(err); c != -101 {
		t.Fatalf("CodeOf(no node) = %d, want -101", c)
	}
}

func TestNilAndEmptyData(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	if _, err := z.Create(r+"/nil", nil, false); err != nil {
		t.Fatal(err)
	}
	if _, err := z.Create(r+"/empty", []byte{}, false); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("x"), 1000)
	if _, err := z.Create(r+"/big", big, false); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string][]byte{r + "/nil": nil, r + "/empty": {}, r + "/big": big} {
		got, err := z.GetData(path, nil)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("getData %s = %q, %v; want %q", path, got, err, want)
		}
	}
	// ZooKeeper keeps data never set apart from empty data (null on the
	// wire, which zkCli prints as "null"); our service does not (yet):
	// its transaction codec stores both as empty.
	got, _ := z.GetData(r+"/nil", nil)
	empty, _ := z.GetData(r+"/empty", nil)
	switch {
	case zktest.UseRealZK() && (got != nil || empty == nil):
		t.Fatalf("ZooKeeper: getData of a node without data = %#v, of empty data %#v; want nil and []byte{}", got, empty)
	case got != nil:
		t.Logf("known difference from ZooKeeper: a node created without data reads back as %#v, not nil", got)
	}
}

func TestCreateModes(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	q := r + "/q"
	if _, err := z.Create(q, nil, false); err != nil {
		t.Fatal(err)
	}
	var names []string
	for i := 0; i < 3; i++ {
		name, err := z.CreateMode(q+"/item-", []byte{byte(i)}, mwzookeeper.PersistentSequential)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	for i, name := range names {
		if want := mwzookeeper.SequentialName(q+"/item-", int32(i)); name != want {
			t.Fatalf("sequential create %d named %s, want %s", i, name, want)
		}
	}
	children, err := z.GetChildren(q)
	if err != nil || len(children) != 3 || children[0] != "item-0000000000" {
		t.Fatalf("children of %s = %v, %v", q, children, err)
	}
	wantErr(t, "delete a node with children", z.Delete(q, -1), mwzookeeper.ErrNotEmpty, q)

	e := r + "/eph"
	if _, err := z.Create(e, nil, true); err != nil {
		t.Fatal(err)
	}
	_, err = z.Create(e+"/child", nil, false)
	wantErr(t, "child of an ephemeral", err, mwzookeeper.ErrNoChildrenForEphemerals, e+"/child")
	ok, st, err := z.Exists(e)
	if err != nil || !ok || st.EphemeralOwner != z.SessionID() {
		t.Fatalf("exists %s = %v %+v %v; want owner 0x%x", e, ok, st, err, z.SessionID())
	}
	_, err = z.CreateMode(r+"/c", nil, mwzookeeper.Container)
	wantErr(t, "container node", err, mwzookeeper.ErrUnimplemented, r+"/c")
}

func TestEphemeralsGoWithTheSession(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	other := connect(t)
	e, err := other.CreateMode(r+"/eph-", nil, mwzookeeper.EphemeralSequential)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _, err := z.Exists(e); err != nil || !ok {
		t.Fatalf("exists %s from another session = %v, %v", e, ok, err)
	}
	other.Close()
	// Close returns when the close is acknowledged: the node is gone.
	if ok, _, err := z.Exists(e); err != nil || ok {
		t.Fatalf("exists %s after its session closed = %v, %v", e, ok, err)
	}
}

func TestExistsAndChildren(t *testing.T) {
	z := connect(t)
	r := root(t, z)
	ok, st, err := z.Exists(r + "/none")
	if err != nil || ok || st != (mwzookeeper.MWStat{}) {
		t.Fatalf("exists on a missing node = %v %+v %v", ok, st, err)
	}
	for _, n := range []string{"c", "a", "b"} {
		if _, err := z.Create(r+"/"+n, nil, false); err != nil {
			t.Fatal(err)
		}
	}
	children, st, err := z.GetChildrenStat(r)
	if err != nil || len(children) != 3 || children[0] != "a" || children[1] != "b" || children[2] != "c" {
		t.Fatalf("children = %v, %v; want [a b c]", children, err)
	}
	if st.NumChildren != 3 || st.Cversion != 3 {
		t.Fatalf("stat of the parent: %+v", st)
	}
	_, err = z.GetChildren(r + "/none")
	wantErr(t, "children of a missing node", err, mwzookeeper.ErrNoNode, r+"/none")
	if err := z.Sync(r); err != nil {
		t.Fatalf("sync: %v", err)
	}
}

func TestBadRequestsRefusedBeforeSending(t *testing.T) {
	z := connect(t)
	for _, p := range []string{"", "a", "/a/", "/a//b", "/a/./b", "/a/../b"} {
		_, err := z.Create(p, nil, false)
		wantErr(t, "create "+p, err, mwzookeeper.ErrBadArguments, p)
		_, err = z.GetData(p, nil)
		wantErr(t, "getData "+p, err, mwzookeeper.ErrBadArguments, p)
	}
	_, err := z.Create("/big", make([]byte, mwzookeeper.MaxData+1), false)
	wantErr(t, "create with too much data", err, mwzookeeper.ErrBadArguments, "/big")
	// Within MaxData but past the frame limit: refused here, where the
	// server would close the connection.
	_, err = z.Create("/big", make([]byte, mwzookeeper.MaxData-16), false)
	wantErr(t, "create of a request past jute.maxbuffer", err, mwzookeeper.ErrBadArguments, "jute.maxbuffer")
	if _, err := z.Create("/fits", make([]byte, mwzookeeper.MaxData-1024), false); err != nil {
		t.Errorf("create of %d bytes, within the frame limit: %v", mwzookeeper.MaxData-1024, err)
	}
}
