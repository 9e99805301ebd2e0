package conformance

import (
	"fmt"
	"sort"
	"time"

	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

// Request builders.

func reqCreate(s int64, path, data string, mode mwzookeeper.CreateMode) *mwzookeeper.Request {
	return &mwzookeeper.Request{Op: mwzookeeper.OpCreate, Session: s, Path: path, Data: []byte(data), Mode: mode}
}

func reqGet(s int64, path string) *mwzookeeper.Request {
	return &mwzookeeper.Request{Op: mwzookeeper.OpGetData, Session: s, Path: path}
}

func reqExists(s int64, path string) *mwzookeeper.Request {
	return &mwzookeeper.Request{Op: mwzookeeper.OpExists, Session: s, Path: path}
}

func reqChildren(s int64, path string) *mwzookeeper.Request {
	return &mwzookeeper.Request{Op: mwzookeeper.OpGetChildren, Session: s, Path: path}
}

// reqChildren2 is getChildren with the node's stat, which clients send
// more often than getChildren (go-zookeeper's ChildrenW, zkCli's ls -w).
func reqChildren2(s int64, path string) *mwzookeeper.Request {
	return &mwzookeeper.Request{Op: mwzookeeper.OpGetChildren2, Session: s, Path: path}
}

func reqSet(s int64, path, data string, version int32) *mwzookeeper.Request {
	return &mwzookeeper.Request{Op: mwzookeeper.OpSetData, Session: s, Path: path, Data: []byte(data), Version: version}
}

func reqDelete(s int64, path string, version int32) *mwzookeeper.Request {
	return &mwzookeeper.Request{Op: mwzookeeper.OpDelete, Session: s, Path: path, Version: version}
}

func reqSync(s int64) *mwzookeeper.Request {
	return &mwzookeeper.Request{Op: mwzookeeper.OpSync, Session: s, Path: "/"}
}

func reqClose(s int64) *mwzookeeper.Request {
	return &mwzookeeper.Request{Op: mwzookeeper.OpCloseSession, Session: s}
}

func withWatch(r *mwzookeeper.Request) *mwzookeeper.Request {
	r.Watch = true
	return r
}

// on names a request on a replica in a failure.
func on(req *mwzookeeper.Request, i int) string {
	return fmt.Sprintf("%s on replica %d", opText(req), i)
}

// ok does req on replica i and fails the test unless it succeeds.
func (x *ens) ok(i int, req *mwzookeeper.Request, expected string) *mwzookeeper.Response {
	x.c.Helper()
	r := x.do(i, req)
	if r.Err != nil {
		x.c.failf(on(req, i), expected, describe(req, r))
	}
	return r
}

// expectErr does req on replica i and fails the test unless it fails with
// want's code.
func (x *ens) expectErr(i int, req *mwzookeeper.Request, want error) *mwzookeeper.Response {
	x.c.Helper()
	r := x.do(i, req)
	if !sameCode(r.Err, want) {
		x.c.failf(on(req, i), "error "+codeText(want), describe(req, r))
	}
	return r
}

// create makes a node and returns the name the Service gives it; for a
// plain create that must be path itself.
func (x *ens) create(i int, s int64, path, data string, mode mwzookeeper.CreateMode) string {
	x.c.Helper()
	req := reqCreate(s, path, data, mode)
	exp := fmt.Sprintf("the created name %q", path)
	if mode.IsSequential() {
		exp = fmt.Sprintf("a created name %q followed by ten digits", path)
	}
	r := x.ok(i, req, exp)
	if !mode.IsSequential() && r.Path != path {
		x.c.failf(on(req, i), exp, describe(req, r))
	}
	return r.Path
}

func (x *ens) getData(i int, s int64, path string) (string, mwzookeeper.MWStat) {
	x.c.Helper()
	r := x.ok(i, reqGet(s, path), "the node's data and stat")
	return string(r.Data), r.Stat
}

// exists returns the node's stat and whether it exists.
func (x *ens) exists(i int, s int64, path string) (mwzookeeper.MWStat, bool) {
	x.c.Helper()
	req := reqExists(s, path)
	r := x.do(i, req)
	switch {
	case r.Err == nil:
		return r.Stat, true
	case sameCode(r.Err, wantNoNode):
		return mwzookeeper.MWStat{}, false
	}
	x.c.failf(on(req, i), "the node's stat or error NoNode", describe(req, r))
	return mwzookeeper.MWStat{}, false
}

func (x *ens) children(i int, s int64, path string) []string {
	x.c.Helper()
	return x.ok(i, reqChildren(s, path), "the node's children").Children
}

func (x *ens) setData(i int, s int64, path, data string, version int32) mwzookeeper.MWStat {
	x.c.Helper()
	return x.ok(i, reqSet(s, path, data, version), "the node's new stat").Stat
}

func (x *ens) delete(i int, s int64, path string, version int32) {
	x.c.Helper()
	x.ok(i, reqDelete(s, path, version), "success")
}

func (x *ens) sync(i int, s int64) {
	x.c.Helper()
	x.ok(i, reqSync(s), "success")
}

// settle syncs replica i, trying again while it answers ConnectionLoss
// (it looks for a leader after a fault), for at most startEnsemble.
func (x *ens) settle(i int, s int64) {
	x.c.Helper()
	req := reqSync(s)
	wait.For(x.c.T, fmt.Sprintf("%s: sync on replica %d to succeed after a fault", x.c.part.ID, i), startEnsemble, func() bool {
		r := x.do(i, req)
		if r.Err != nil && !sameCode(r.Err, wantConnectionLoss) {
			x.c.failf(on(req, i), "success", describe(req, r))
		}
		return r.Err == nil
	})
}

// znode is what a replica shows of one node.
type znode struct {
	data string
	stat mwzookeeper.MWStat
}

// dump syncs replica i and reads its whole tree: every node's data and
// stat, by path.
func (x *ens) dump(i int) map[string]znode {
	x.c.Helper()
	s := x.reader(i)
	x.settle(i, s)
	out := map[string]znode{}
	todo := []string{"/"}
	for len(todo) > 0 && len(out) < 100000 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		data, st := x.getData(i, s, p)
		out[p] = znode{data, st}
		for _, ch := range x.children(i, s, p) {
			todo = append(todo, mwzookeeper.Join(p, ch))
		}
	}
	return out
}

// diffTrees returns the first difference, in path order, between the
// trees of replicas a and b ("" if none). Times are left out: A5.4 checks
// them, so that a part's tests do not fail for another part's bug.
func diffTrees(a, b int, ta, tb map[string]znode) string {
	paths := make([]string, 0, len(ta)+len(tb))
	for p := range ta {
		paths = append(paths, p)
	}
	for p := range tb {
		if _, ok := ta[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		na, oka := ta[p]
		nb, okb := tb[p]
		switch {
		case !oka:
			return fmt.Sprintf("%s exists on replica %d but not on replica %d", p, b, a)
		case !okb:
			return fmt.Sprintf("%s exists on replica %d but not on replica %d", p, a, b)
		case na.data != nb.data:
			return fmt.Sprintf("%s has data %q on replica %d but %q on replica %d", p, na.data, a, nb.data, b)
		case untimed(na.stat) != untimed(nb.stat):
			return fmt.Sprintf("%s has stat %s on replica %d but %s on replica %d", p, statText(na.stat), a, statText(nb.stat), b)
		}
	}
	return ""
}

// untimed is s without ctime and mtime.
func untimed(s mwzookeeper.MWStat) mwzookeeper.MWStat {
	s.Ctime, s.Mtime = 0, 0
	return s
}

// sameEverywhere dumps every running replica and fails on the first
// difference from the first one.
func (x *ens) sameEverywhere(what string) map[string]znode {
	x.c.Helper()
	rs := x.running()
	first := x.dump(rs[0])
	for _, i := range rs[1:] {
		if d := diffTrees(rs[0], i, first, x.dump(i)); d != "" {
			x.c.failf(what, "the same tree on every replica after a sync", d)
		}
	}
	return first
}

// poll checks cond every 2 ms until it holds or d has passed, and says
// whether it held. Unlike wait.For it leaves the failure message to the
// caller.
func poll(d time.Duration, cond func() bool) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-deadline.C:
			return cond()
		case <-tick.C:
		}
	}
	return true
}

func (x *ens) closeSession(i int, s int64) {
	x.c.Helper()
	x.ok(i, reqClose(s), "success")
}
