package aufgabe5

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// step is one request of the operations table and what ZooKeeper answers.
type step struct {
	name  string
	req   req
	want  error // nil: success
	check func(t *testing.T, r *resp)
}

const (
	create1 = mwzookeeper.OpCreate
	create2 = mwzookeeper.OpCreate2
	del     = mwzookeeper.OpDelete
	set     = mwzookeeper.OpSetData
	getData = mwzookeeper.OpGetData
	exists  = mwzookeeper.OpExists
	kids    = mwzookeeper.OpGetChildren
	kids2   = mwzookeeper.OpGetChildren2
)

func children(want ...string) func(*testing.T, *resp) {
	return func(t *testing.T, r *resp) {
		t.Helper()
		if !slices.Equal(r.Children, want) && !(len(want) == 0 && len(r.Children) == 0) {
			t.Fatalf("children %q, want %q", r.Children, want)
		}
	}
}

func stat(f func(mwzookeeper.MWStat) bool, what string) func(*testing.T, *resp) {
	return func(t *testing.T, r *resp) {
		t.Helper()
		if !f(r.Stat) {
			t.Fatalf("stat %+v: want %s", r.Stat, what)
		}
	}
}

// opTable is ZooKeeper's documented behaviour, one request at a time.
func opTable(s int64) []step {
	big := make([]byte, mwzookeeper.MaxData+1)
	return []step{
		{"root lists zookeeper", req{Op: kids, Path: "/"}, nil, children("zookeeper")},
		{"create", req{Op: create2, Path: "/a", Data: []byte("x")}, nil, func(t *testing.T, r *resp) {
			if r.Path != "/a" || r.Stat.Czxid != r.Zxid || r.Stat.Mzxid != r.Zxid || r.Stat.Pzxid != r.Zxid ||
				r.Stat.DataLength != 1 || r.Stat.Ctime == 0 || r.Stat.Ctime != r.Stat.Mtime || r.Stat.Version != 0 {
				t.Fatalf("create2 reply %+v", r)
			}
		}},
		{"exists", req{Op: exists, Path: "/a"}, nil, stat(func(st mwzookeeper.MWStat) bool { return st.DataLength == 1 }, "dataLength 1")},
		{"exists missing", req{Op: exists, Path: "/nope"}, mwzookeeper.ErrNoNode, nil},
		{"create again", req{Op: create1, Path: "/a"}, mwzookeeper.ErrNodeExists, nil},
		{"create root", req{Op: create1, Path: "/"}, mwzookeeper.ErrNodeExists, nil},
		{"no parent", req{Op: create1, Path: "/x/y"}, mwzookeeper.ErrNoNode, nil},
		{"bad path", req{Op: create1, Path: "/a/"}, mwzookeeper.ErrBadArguments, nil},
		{"relative path", req{Op: create1, Path: "a"}, mwzookeeper.ErrBadArguments, nil},
		{"dot segment", req{Op: create1, Path: "/a/."}, mwzookeeper.ErrBadArguments, nil},
		{"too much data", req{Op: create1, Path: "/big", Data: big}, mwzookeeper.ErrBadArguments, nil},
		{"container flag on create", req{Op: create1, Path: "/c", Mode: mwzookeeper.Container}, nil, nil},
		{"a persistent node", req{Op: exists, Path: "/c"}, nil, stat(func(st mwzookeeper.MWStat) bool {
			return st.EphemeralOwner == 0
		}, "owner 0, as ZooKeeper's CreateTxn")},
		{"createContainer", req{Op: mwzookeeper.OpCreateContainer, Path: "/c2"}, nil, nil},
		{"container owner", req{Op: exists, Path: "/c2"}, nil, stat(func(st mwzookeeper.MWStat) bool {
			return st.EphemeralOwner == mwzookeeper.ContainerOwner
		}, "owner = the container mark")},
		{"ttl off", req{Op: create1, Path: "/t", Mode: mwzookeeper.PersistentTTL, TTL: 1000}, mwzookeeper.ErrUnimplemented, nil},
		{"bad mode", req{Op: create1, Path: "/c", Mode: 42}, mwzookeeper.ErrBadArguments, nil},
		{"ephemeral", req{Op: create1, Path: "/a/e", Mode: mwzookeeper.Ephemeral}, nil, nil},
		{"ephemeral owner", req{Op: exists, Path: "/a/e"}, nil, stat(func(st mwzookeeper.MWStat) bool { return st.EphemeralOwner == s }, "owner = session")},
		{"child of ephemeral", req{Op: create1, Path: "/a/e/x"}, mwzookeeper.ErrNoChildrenForEphemerals, nil},
		{"parent counts", req{Op: exists, Path: "/a"}, nil, stat(func(st mwzookeeper.MWStat) bool {
			return st.NumChildren == 1 && st.Cversion == 1 && st.Pzxid > st.Czxid
		}, "numChildren 1, cversion 1, pzxid of the child's create")},
		{"sequential", req{Op: create1, Path: "/a/q-", Mode: mwzookeeper.PersistentSequential}, nil, func(t *testing.T, r *resp) {
			if r.Path != "/a/q-0000000001" {
				t.Fatalf("sequential name %q, want /a/q-0000000001 (parent cversion 1)", r.Path)
			}
		}},
		{"sequential trailing slash", req{Op: create1, Path: "/a/", Mode: mwzookeeper.EphemeralSequential}, nil, func(t *testing.T, r *resp) {
			if r.Path != "/a/0000000002" {
				t.Fatalf("sequential name %q, want /a/0000000002", r.Path)
			}
		}},
		{"children sorted", req{Op: kids2, Path: "/a"}, nil, func(t *testing.T, r *resp) {
			children("0000000002", "e", "q-0000000001")(t, r)
			if r.Stat.NumChildren != 3 || r.Stat.Cversion != 3 {
				t.Fatalf("getChildren2 stat %+v", r.Stat)
			}
		}},
		{"getData", req{Op: getData, Path: "/a"}, nil, func(t *testing.T, r *resp) {
			if string(r.Data) != "x" || r.Stat.Version != 0 {
				t.Fatalf("getData %q %+v", r.Data, r.Stat)
			}
		}},
		{"getData missing", req{Op: getData, Path: "/nope"}, mwzookeeper.ErrNoNode, nil},
		{"children missing", req{Op: kids, Path: "/nope"}, mwzookeeper.ErrNoNode, nil},
		{"setData", req{Op: set, Path: "/a", Data: []byte("yy"), Version: 0}, nil, func(t *testing.T, r *resp) {
			if r.Stat.Version != 1 || r.Stat.Mzxid != r.Zxid || r.Stat.DataLength != 2 || r.Stat.Mtime < r.Stat.Ctime || r.Stat.Czxid == r.Zxid {
				t.Fatalf("setData stat %+v at %#x", r.Stat, r.Zxid)
			}
		}},
		{"setData bad version", req{Op: set, Path: "/a", Version: 0}, mwzookeeper.ErrBadVersion, nil},
		{"setData any version", req{Op: set, Path: "/a", Data: []byte("z"), Version: -1}, nil, stat(func(st mwzookeeper.MWStat) bool { return st.Version == 2 }, "version 2")},
		{"setData missing", req{Op: set, Path: "/nope", Version: -1}, mwzookeeper.ErrNoNode, nil},
		{"check", req{Op: mwzookeeper.OpCheck, Path: "/a", Version: 2}, nil, nil},
		{"check bad version", req{Op: mwzookeeper.OpCheck, Path: "/a", Version: 1}, mwzookeeper.ErrBadVersion, nil},
		{"delete not empty", req{Op: del, Path: "/a", Version: -1}, mwzookeeper.ErrNotEmpty, nil},
		{"delete bad version", req{Op: del, Path: "/a/q-0000000001", Version: 3}, mwzookeeper.ErrBadVersion, nil},
		{"delete", req{Op: del, Path: "/a/q-0000000001", Version: 0}, nil, nil},
		{"delete missing", req{Op: del, Path: "/a/q-0000000001", Version: -1}, mwzookeeper.ErrNoNode, nil},
		{"delete counts", req{Op: kids2, Path: "/a"}, nil, func(t *testing.T, r *resp) {
			if r.Stat.NumChildren != 2 || r.Stat.Cversion != 4 || r.Stat.Pzxid >= r.Zxid+1 {
				t.Fatalf("after delete %+v", r.Stat)
			}
		}},
		{"sequence counts deletes", req{Op: create1, Path: "/a/q-", Mode: mwzookeeper.PersistentSequential}, nil, func(t *testing.T, r *resp) {
			if r.Path != "/a/q-0000000004" {
				t.Fatalf("sequential name %q, want /a/q-0000000004", r.Path)
			}
		}},
		{"delete root", req{Op: del, Path: "/", Version: -1}, mwzookeeper.ErrBadArguments, nil},
		{"unknown read", req{Op: mwzookeeper.OpWhoAmI}, mwzookeeper.ErrUnimplemented, nil},
	}
}

// TestOperationsAndErrors runs the table on one replica and on three,
// every request on replica 1 and every read again on the last replica
// after a sync there.
func TestOperationsAndErrors(t *testing.T) {
	for _, n := range []int{1, 3} {
		t.Run(map[int]string{1: "single", 3: "ensemble"}[n], func(t *testing.T) {
			e := start(t, n, svctest.Options{})
			s := e.Session(t, 1, 10*time.Second)
			other := e.Session(t, n, 10*time.Second)
			for _, c := range opTable(s) {
				c.req.Session = s
				r := e.Do(t, 1, &c.req)
				checkStep(t, c, r, "replica 1")
				if !c.req.Op.IsWrite() && n > 1 {
					mustOK(t, "sync", e.Do(t, n, &req{Op: mwzookeeper.OpSync, Session: other, Path: "/"}))
					c.req.Session = other
					checkStep(t, c, e.Do(t, n, &c.req), "another replica")
				}
			}
			waitSame(t, e)
		})
	}
}

func checkStep(t *testing.T, c step, r *resp, where string) {
	t.Helper()
	if (c.want == nil) != (r.Err == nil) || (c.want != nil && !errors.Is(r.Err, c.want)) {
		t.Fatalf("%s on %s: %s %q: got %v, want %v", c.name, where, c.req.Op, c.req.Path, r.Err, c.want)
	}
	if r.Err != nil && !strings.Contains(r.Err.Error(), "") {
		t.Fatalf("%s: error without detail: %v", c.name, r.Err)
	}
	if r.Zxid == 0 {
		t.Fatalf("%s on %s: reply without zxid", c.name, where)
	}
	if c.check != nil {
		c.check(t, r)
	}
}
