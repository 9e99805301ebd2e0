package conformance

import (
	"fmt"
	"strings"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// A5.7 (optional): multi, on three replicas.
var multiTests = []test{
	{"A5.7", "MultiResults", 2, "a multi of check, create, delete and setData applies every op and reports each op's result (a sequential create's the name it made)", testMultiResults},
	{"A5.7", "AllOrNothing", 2, "a multi with a failing op (a check's version included) changes nothing on any replica and reports the error shape of mwzookeeper.OpResult", testAllOrNothing},
	{"A5.7", "MultiWatches", 1, "a failed multi fires no watch, a successful one what its ops fire as single writes (checked only where single writes fire watches)", testMultiWatches},
}

func reqMulti(s int64, ops ...mwzookeeper.Op) *mwzookeeper.Request {
	return &mwzookeeper.Request{Op: mwzookeeper.OpMulti, Session: s, Ops: ops}
}

func opCreate(p, data string) mwzookeeper.Op {
	return mwzookeeper.Op{Op: mwzookeeper.OpCreate, Path: p, Data: []byte(data)}
}

func opSet(p, data string, v int32) mwzookeeper.Op {
	return mwzookeeper.Op{Op: mwzookeeper.OpSetData, Path: p, Data: []byte(data), Version: v}
}

func opCheck(p string, v int32) mwzookeeper.Op {
	return mwzookeeper.Op{Op: mwzookeeper.OpCheck, Path: p, Version: v}
}

func opDelete(p string, v int32) mwzookeeper.Op {
	return mwzookeeper.Op{Op: mwzookeeper.OpDelete, Path: p, Version: v}
}

func testMultiResults(c *T) {
	x := c.start(3, svctest.Options{})
	s := x.reader(2)
	req := reqMulti(s, opCreate("/m1", "a"), opCreate("/m1/c", ""), opSet("/m1", "b", 0), opCheck("/m1", 1), opDelete("/m1/c", -1))
	r := x.ok(2, req, "success")
	exp := "results [create: \"/m1\", create: \"/m1/c\", setData: version 1, check: ok, delete: ok]"
	ok := len(r.Results) == 5 && r.Results[0].Path == "/m1" && r.Results[1].Path == "/m1/c" && r.Results[2].Stat.Version == 1
	for k, res := range r.Results {
		ok = ok && res.Err == nil && res.Op == req.Ops[k].Op
	}
	if !ok {
		c.failf(on(req, 2), exp, describe(req, r))
	}
	tree := x.sameEverywhere("the trees of the three replicas after the multi")
	if n, found := tree["/m1"]; !found || n.data != "b" || n.stat.Version != 1 || n.stat.NumChildren != 0 {
		c.failf("getData /m1 after the multi", "data \"b\", version 1, no children", fmt.Sprintf("found=%v data %q stat %s", found, n.data, statText(n.stat)))
	}
	if _, found := tree["/m1/c"]; found {
		c.failf("exists /m1/c after the multi (it created and deleted it)", "error NoNode", "the node")
	}
	x.multiSequentialName(s)
}

// multiSequentialName: a sequential create in a multi reports the name of
// the node it made, as a single create does (clients take it for the
// node's name). Whatever the suffix: the check holds without A5.5's
// numbering, so a fault there is not charged here again; nor is a Service
// without the optional A5.5 that refuses sequential creates as
// unimplemented (A5.5 takes its points).
func (x *ens) multiSequentialName(s int64) {
	x.c.Helper()
	req := reqMulti(s, opCreate("/m2", ""), mwzookeeper.Op{Op: mwzookeeper.OpCreate, Path: "/m2/n-", Mode: seq})
	r := x.do(2, req)
	switch {
	case sameCode(r.Err, mwzookeeper.ErrUnimplemented):
		return
	case r.Err != nil:
		x.c.failf(on(req, 2), "success", describe(req, r))
	}
	tree := x.sameEverywhere("the trees of the three replicas after the multi with a sequential create")
	var made []string
	for p := range tree {
		if strings.HasPrefix(p, "/m2/") {
			made = append(made, p)
		}
	}
	if len(made) != 1 || len(r.Results) != 2 || r.Results[1].Path != made[0] {
		x.c.failf(on(req, 2), fmt.Sprintf("results [create: \"/m2\", create: the name of the node it made under /m2, %q]", made),
			describe(req, r))
	}
}

// failingMulti runs req, which must fail at op failed with want, and
// checks the error shape and that no replica's tree changed.
func (x *ens) failingMulti(i int, req *mwzookeeper.Request, failed int, want error) {
	x.c.Helper()
	before := map[int]map[string]znode{}
	for _, j := range x.running() {
		before[j] = x.dump(j)
	}
	r := x.do(i, req)
	exp := fmt.Sprintf("error %s, with ops before op %d nil, op %d %s, and the ops after RuntimeInconsistency", codeText(want), failed+1, failed+1, codeText(want))
	ok := sameCode(r.Err, want) && len(r.Results) == len(req.Ops)
	for k := 0; ok && k < len(r.Results); k++ {
		res := r.Results[k]
		switch {
		case res.Op != req.Ops[k].Op:
			ok = false
		case k < failed:
			ok = res.Err == nil
		case k == failed:
			ok = sameCode(res.Err, want)
		default:
			ok = sameCode(res.Err, wantRuntimeInconsistency)
		}
	}
	if !ok {
		got := describe(req, r)
		if r.Err != nil {
			got += " with results " + resultsText(r.Results)
		}
		x.c.failf(on(req, i), exp, got)
	}
	for _, j := range x.running() {
		if d := diffTrees(j, j, before[j], x.dump(j)); d != "" {
			x.c.failf(fmt.Sprintf("the tree of replica %d after the failed %s", j, opText(req)), "no change at all (a multi is all or nothing)",
				"a change: before and after, "+d)
		}
	}
}

func testAllOrNothing(c *T) {
	x := c.start(3, svctest.Options{})
	s := x.reader(2)
	x.create(2, s, "/m2", "", pers)
	x.failingMulti(2, reqMulti(s, opCreate("/m3", ""), opCreate("/m2/x", ""), opSet("/m2", "y", 7), opCreate("/m4", "")),
		2, wantBadVersion)
	x.failingMulti(3, reqMulti(x.reader(3), opCreate("/m5", ""), opSet("/m2", "z", -1), opCheck("/nope", -1)),
		2, wantNoNode)
	x.failingMulti(1, reqMulti(x.reader(1), opDelete("/m2", -1), opCreate("/m2", ""), opCreate("/m2", "")),
		2, wantNodeExists)
	// A check compares the version too, not only that the node exists.
	x.failingMulti(2, reqMulti(s, opCreate("/m6", ""), opCheck("/m2", 0), opCheck("/m2", 5)),
		2, wantBadVersion)
}

// multiWatchOps are the ops of testMultiWatches' multi on the subtree
// at p: each fires one of the watches watchTwin leaves. A failing multi
// ends with a setData of a version p does not have.
func multiWatchOps(p string, failing bool) []mwzookeeper.Op {
	ops := []mwzookeeper.Op{opSet(p, "x", -1), opCreate(p+"1", ""), opCreate(p+"/c", "")}
	if failing {
		ops = append(ops, opSet(p, "z", 7))
	}
	return ops
}

// multiText names a multi and its ops in a failure: "multi [setData
// /mwb, create /mwb1]".
func multiText(ops []mwzookeeper.Op) string {
	names := make([]string, len(ops))
	for i, o := range ops {
		names[i] = opText(reqOf(0, o))
	}
	return "multi [" + strings.Join(names, ", ") + "]"
}

// watchTwin creates p and leaves w's watches on it: getData p, exists
// p+"1" (missing), getChildren p.
func (x *ens) watchTwin(w, wr int64, p string) {
	x.c.Helper()
	x.create(writerReplica, wr, p, "", pers)
	x.settle(watcherReplica, w)
	x.ok(watcherReplica, withWatch(reqGet(w, p)), "the node's data")
	x.expectErr(watcherReplica, withWatch(reqExists(w, p+"1")), wantNoNode)
	x.ok(watcherReplica, withWatch(reqChildren(w, p)), "the node's children")
}

// testMultiWatches: a failed multi changed nothing, so it fires no watch
// (all or nothing); a successful one fires what its ops fire as single
// writes. The single writes run first, on a twin subtree watched alike:
// their events are what this Service's watches (A5.6) fire, so a fault of
// A5.6 costs nothing here, and where they fire nothing there is no event
// to compare; the multis must still fail and succeed as asked, or a
// Service without watches would earn this point without a multi.
func testMultiWatches(c *T) {
	x, w, wr := c.watchEnsemble()
	h := x.e.Host(watcherReplica)
	x.watchTwin(w, wr, "/mwa")
	for _, o := range multiWatchOps("/mwa", false) {
		x.ok(writerReplica, reqOf(wr, o), "success")
	}
	// No watches at all: A5.6 counts that, not A5.7.
	watching := poll(eventTimeout, func() bool { return len(h.Events(w)) > 0 })
	var want []mwzookeeper.WatchEvent
	if watching {
		x.settle(watcherReplica, w)
		for _, e := range h.Events(w) {
			want = append(want, ev(e.Type, "/mwb"+strings.TrimPrefix(e.Path, "/mwa")))
		}
	}
	base := len(h.Events(w))
	x.watchTwin(w, wr, "/mwb")
	x.expectErr(writerReplica, reqMulti(wr, multiWatchOps("/mwb", true)...), wantBadVersion)
	x.settle(watcherReplica, w) // the events of an applied write come before the sync's reply
	if evs := h.Events(w)[base:]; watching && len(evs) != 0 {
		c.failf(fmt.Sprintf("the watch events of session %#x on replica %d after the failed %s on replica %d", w, watcherReplica, multiText(multiWatchOps("/mwb", true)), writerReplica),
			"none (a failed multi changes nothing, so no watch fires)", "events "+evText(evs))
		return
	}
	x.ok(writerReplica, reqMulti(wr, multiWatchOps("/mwb", false)...), "success")
	if !watching {
		return
	}
	poll(eventTimeout, func() bool { return len(h.Events(w)) >= base+len(want) })
	x.settle(watcherReplica, w)
	if got := h.Events(w)[base:]; !sameEvents(got, want) {
		c.failf(fmt.Sprintf("the watch events of session %#x on replica %d after getData /mwb, exists /mwb1 and getChildren /mwb (watches) and %s on replica %d",
			w, watcherReplica, multiText(multiWatchOps("/mwb", false)), writerReplica),
			"events "+evText(want)+" (in any order: what the same ops fired as single writes on /mwa)", "events "+evText(got))
	}
}

// reqOf is op o as a request of its own.
func reqOf(s int64, o mwzookeeper.Op) *mwzookeeper.Request {
	return &mwzookeeper.Request{Op: o.Op, Session: s, Path: o.Path, Data: o.Data, Version: o.Version, Mode: o.Mode}
}

// sameEvents says whether got and want hold the same events (type and
// path), in any order: the order of one write's events is not specified.
func sameEvents(got, want []mwzookeeper.WatchEvent) bool {
	if len(got) != len(want) {
		return false
	}
	left := map[string]int{}
	for _, e := range want {
		left[e.Type.String()+" "+e.Path]++
	}
	for _, e := range got {
		k := e.Type.String() + " " + e.Path
		if left[k] == 0 {
			return false
		}
		left[k]--
	}
	return true
}
