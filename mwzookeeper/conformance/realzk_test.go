package conformance

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/realzk"
	"zablab/mwzookeeper"
)

// The scripts of A5.1 and A5.5 claim ZooKeeper's answers. This test runs
// them against Apache ZooKeeper (Debian's zookeeper package) through
// go-zookeeper/zk, so the claims are checked, not believed. It skips where
// Java or ZooKeeper is missing, and with -short.

// zkCodes maps go-zookeeper's errors to ZooKeeper's codes.
var zkCodes = map[error]error{
	zk.ErrNoNode: mwzookeeper.ErrNoNode, zk.ErrNodeExists: mwzookeeper.ErrNodeExists,
	zk.ErrBadVersion: mwzookeeper.ErrBadVersion, zk.ErrNotEmpty: mwzookeeper.ErrNotEmpty,
	zk.ErrNoChildrenForEphemerals: mwzookeeper.ErrNoChildrenForEphemerals, zk.ErrBadArguments: mwzookeeper.ErrBadArguments,
}

func zkErr(err error) error {
	if err == nil {
		return nil
	}
	if e, ok := zkCodes[err]; ok {
		return e
	}
	return err
}

func zkStat(s *zk.Stat) mwzookeeper.MWStat {
	if s == nil {
		return mwzookeeper.MWStat{}
	}
	return mwzookeeper.MWStat{Czxid: s.Czxid, Mzxid: s.Mzxid, Pzxid: s.Pzxid, Ctime: s.Ctime, Mtime: s.Mtime,
		Version: s.Version, Cversion: s.Cversion, Aversion: s.Aversion, EphemeralOwner: s.EphemeralOwner,
		DataLength: s.DataLength, NumChildren: s.NumChildren}
}

// zkDo sends req to ZooKeeper and answers as a Service would. Children
// come sorted: ZooKeeper leaves them in hash order, our service sorts.
func zkDo(conn *zk.Conn, req *mwzookeeper.Request) *mwzookeeper.Response {
	r := &mwzookeeper.Response{}
	var st *zk.Stat
	var err error
	switch req.Op {
	case mwzookeeper.OpCreate:
		r.Path, err = conn.Create(req.Path, req.Data, int32(req.Mode), zk.WorldACL(zk.PermAll))
	case mwzookeeper.OpCreate2: // go-zookeeper has no create2: create, then the stat
		if r.Path, err = conn.Create(req.Path, req.Data, int32(req.Mode), zk.WorldACL(zk.PermAll)); err == nil {
			_, st, err = conn.Exists(r.Path)
		}
	case mwzookeeper.OpGetData:
		r.Data, st, err = conn.Get(req.Path)
	case mwzookeeper.OpExists:
		var ok bool
		if ok, st, err = conn.Exists(req.Path); err == nil && !ok {
			err = zk.ErrNoNode
		}
	case mwzookeeper.OpGetChildren, mwzookeeper.OpGetChildren2:
		r.Children, st, err = conn.Children(req.Path)
		slices.Sort(r.Children)
	case mwzookeeper.OpSetData:
		st, err = conn.Set(req.Path, req.Data, req.Version)
	case mwzookeeper.OpDelete:
		err = conn.Delete(req.Path, req.Version)
	default:
		err = fmt.Errorf("zkDo: %s not supported", req.Op)
	}
	r.Stat, r.Err = zkStat(st), zkErr(err)
	if r.Data == nil && req.Op == mwzookeeper.OpGetData && err == nil {
		r.Data = []byte{}
	}
	return r
}

func TestScriptsAnswerAsApacheZooKeeper(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Apache ZooKeeper (a JVM, seconds); skipped with -short")
	}
	addr := realzk.StartT(t) // waits until it serves: a client that connects earlier can be stuck
	conn, _, err := zk.Connect([]string{addr}, 10*time.Second, zk.WithLogInfo(false))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if !poll(60*time.Second, func() bool { return conn.State() == zk.StateHasSession }) {
		t.Fatalf("no session with Apache ZooKeeper at %s within 60 s", addr)
	}
	scripts := []struct {
		name  string
		steps []step
	}{{"tree script", treeScript(0)}, {"error script", errorScript(0)}, {"sequential script", sequentialScript(0)}}
	for _, sc := range scripts {
		for k, st := range sc.steps {
			r := zkDo(conn, st.req)
			if exp, ok := st.want(r); !ok {
				t.Fatalf("%s, step %d, %s: the script expects %s, Apache ZooKeeper answers %s",
					sc.name, k+1, opText(st.req), exp, describe(st.req, r))
			}
		}
		for _, p := range []string{"/a", "/e/k", "/e", "/q"} { // clean up between scripts
			kids, _, _ := conn.Children(p)
			for _, k := range kids {
				_ = conn.Delete(p+"/"+k, -1)
			}
			if err := conn.Delete(p, -1); err != nil && !errors.Is(err, zk.ErrNoNode) {
				t.Fatalf("clean up %s: %v", p, err)
			}
		}
	}
}
