package server

import (
	"errors"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/solutions/aufgabe5"
)

// The reference Service for startA5; a handout has no solutions/ and
// so no such file, and the tests that need the reference skip there.
func init() { reference = aufgabe5.New }

// TestNullDataReadsBackNull: a node created (or set) with null data
// reads back as null in ZooKeeper (go-zookeeper: nil; zkCli: "null"). The
// codec keeps null and empty apart; the Service must store them apart.
func TestNullDataReadsBackNull(t *testing.T) {
	s := startA5(t, "")
	c := zkClient(t, 3*time.Second, s.Addr().String())
	if _, err := c.Create("/n", nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Create("/e", []byte{}, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	n, _, err := c.Get("/n")
	if err != nil {
		t.Fatal(err)
	}
	e, _, err := c.Get("/e")
	if err != nil {
		t.Fatal(err)
	}
	if n != nil || e == nil {
		t.Fatalf("Get /n (created with null data) = %#v, Get /e (created with empty data) = %#v; want nil and []byte{}", n, e)
	}
}

// TestGetACL: ZooKeeper answers getACL (opcode 6) with the node's ACL
// and stat (world:anyone, cdrwa, for a node created with it). The Service
// answers OpGetACL as a read with the stat; the codec adds the ACL.
func TestGetACL(t *testing.T) {
	s := startA5(t, "")
	c := zkClient(t, 3*time.Second, s.Addr().String())
	if _, err := c.Create("/acl", []byte("x"), 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	acl, st, err := c.GetACL("/acl")
	if err != nil || len(acl) != 1 || acl[0] != zk.WorldACL(zk.PermAll)[0] || st == nil || st.DataLength != 1 {
		t.Fatalf("GetACL /acl = %v, %+v, %v; ZooKeeper 3.8 answers [{31 world anyone}] and the stat", acl, st, err)
	}
}

// TestCreateWithEmptyACL: ZooKeeper answers a create with an empty ACL list
// InvalidACL, alone and inside a multi (there as the failing op's result,
// nothing applied), and getACL of a missing node NoNode.
func TestCreateWithEmptyACL(t *testing.T) {
	s := startA5(t, "")
	c := zkClient(t, 3*time.Second, s.Addr().String())
	if _, err := c.Create("/e", []byte("x"), 0, nil); !errors.Is(err, zk.ErrInvalidACL) {
		t.Errorf("create with an empty ACL: %v, want ErrInvalidACL", err)
	}
	res, err := c.Multi(&zk.CreateRequest{Path: "/m1", Acl: zk.WorldACL(zk.PermAll)}, &zk.CreateRequest{Path: "/m2"},
		&zk.SetDataRequest{Path: "/", Version: -1})
	if !errors.Is(err, zk.ErrInvalidACL) || len(res) != 3 || res[0].Error != nil ||
		!errors.Is(res[1].Error, zk.ErrInvalidACL) || res[2].Error == nil {
		t.Errorf("multi with an empty ACL: %v %+v, want ErrInvalidACL from op 1", err, res)
	}
	for _, p := range []string{"/e", "/m1", "/m2"} {
		if ok, _, err := c.Exists(p); ok || err != nil {
			t.Errorf("exists %s: %v %v, want false: nothing created", p, ok, err)
		}
	}
	if _, _, err := c.GetACL("/missing"); !errors.Is(err, zk.ErrNoNode) {
		t.Errorf("getACL of a missing node: %v, want ErrNoNode", err)
	}
}
