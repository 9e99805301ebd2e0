package conformance

import (
	"fmt"
	"strings"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// A5.1: one replica (SingleZab). Tree semantics as ZooKeeper has them,
// writes answered when their delivery is applied, and decided there.
var treeTests = []test{
	{"A5.1", "Session", 2, "a lone replica opens sessions with distinct ids and closes one (the first TODOs' path: Submit, Zab, Deliver, reply)", testSession},
	{"A5.1", "FirstNode", 3, "create one node, then getData and exists see it", testFirstNode},
	{"A5.1", "TreeOperations", 4, "create, getData, exists, getChildren (sorted), setData, delete as ZooKeeper answers them", testTreeOperations},
	{"A5.1", "ErrorCodes", 6, "NoNode, NodeExists, BadVersion, NotEmpty, NoChildrenForEphemerals, bad paths, data over MaxData, an ephemeral without a session", testErrorCodes},
	{"A5.1", "StatFields", 6, "czxid, mzxid, pzxid, ctime, mtime, version, cversion, ephemeralOwner, dataLength, numChildren", testStatFields},
	{"A5.1", "AnsweredAtDelivery", 4, "a write's reply comes after it is applied: its zxid is the node's, any read after it sees it, and the read's reply zxid is the applied one", testAnsweredAtDelivery},
	{"A5.1", "DecidedAtApply", 3, "two sessions' conflicting writes in flight together: exactly one wins, as the order decides", testDecidedAtApply},
	{"A5.1", "ThroughServer", 2, "the whole path: the Service behind the real server, used with the course's client", testThroughServer},
}

const (
	pers = mwzookeeper.Persistent
	eph  = mwzookeeper.Ephemeral
)

func testTreeOperations(c *T) {
	x := c.start(1, svctest.Options{})
	x.runScript("tree script", 1, treeScript(x.session(1, longSession)))
}

// treeScript is every tree operation once, with ZooKeeper's answers
// (checked against Apache ZooKeeper by this package's tests).
func treeScript(s int64) []step {
	return []step{
		{reqCreate(s, "/a", "x", pers), wantName("/a")},
		{reqCreate(s, "/a/c", "y", pers), wantName("/a/c")},
		{reqCreate(s, "/a/b", "", pers), wantName("/a/b")},
		{reqGet(s, "/a"), wantData("x", 0)},
		{reqExists(s, "/a/b"), wantOK()},
		{reqChildren(s, "/a"), wantChildren("b", "c")},
		{&mwzookeeper.Request{Op: mwzookeeper.OpGetChildren2, Session: s, Path: "/a"}, both(wantChildren("b", "c"), wantChildCount(2, 2))},
		{reqChildren(s, "/"), wantChildren("a")},
		{reqSet(s, "/a", "z", -1), wantVersion(1)},
		{reqSet(s, "/a", "wo", 1), wantVersion(2)},
		{reqGet(s, "/a"), wantData("wo", 2)},
		{reqGet(s, "/a/c"), wantData("y", 0)},
		{reqSet(s, "/a/c", "", 0), wantVersion(1)},
		{reqGet(s, "/a/c"), wantData("", 1)},
		{reqDelete(s, "/a/b", -1), wantOK()},
		{reqDelete(s, "/a/c", 1), wantOK()},
		{reqChildren(s, "/a"), wantChildren()},
		{reqDelete(s, "/a", 2), wantOK()},
		{reqExists(s, "/a"), wantErr(wantNoNode)},
		{reqCreate(s, "/a", "again", pers), wantName("/a")},
		{reqGet(s, "/a"), wantData("again", 0)},
		// create2 is create answering the new node's stat (kazoo's create
		// with include_data, the Java client's create with a Stat).
		{&mwzookeeper.Request{Op: mwzookeeper.OpCreate2, Session: s, Path: "/a/d", Data: []byte("new")}, both(wantName("/a/d"), wantNewStat(3))},
		{reqGet(s, "/a/d"), wantData("new", 0)},
	}
}

func testErrorCodes(c *T) {
	x := c.start(1, svctest.Options{})
	s := x.session(1, longSession)
	steps := errorScript(s)
	for _, p := range []string{"a", "/a/", "//a", "/e//k", "/e/./k", "/e/../k", "/.", "", "/e/k\x01"} {
		steps = append(steps, step{reqCreate(s, p, "", pers), wantErr(wantBadArguments)})
	}
	for _, p := range []string{"e", "/e/", "/e/..", ""} {
		steps = append(steps, step{reqGet(s, p), wantErr(wantBadArguments)},
			step{reqSet(s, p, "", -1), wantErr(wantBadArguments)},
			step{reqDelete(s, p, -1), wantErr(wantBadArguments)})
	}
	// Data over MaxData, and an ephemeral without a session to own it, are
	// refused (a student's Service without either check earned every point).
	big := strings.Repeat("x", mwzookeeper.MaxData+1)
	steps = append(steps, step{reqCreate(s, "/big", big, pers), wantErr(wantBadArguments)},
		step{reqSet(s, "/e", big, -1), wantErr(wantBadArguments)},
		step{reqCreate(0, "/owner", "", eph), wantErr(wantBadArguments)})
	// ZooKeeper's own nodes never go (a student's delete without the check
	// took /zookeeper and still earned every point).
	for _, p := range []string{"/", "/zookeeper"} {
		steps = append(steps, step{reqDelete(s, p, -1), wantErr(wantBadArguments)})
	}
	// Nothing of the failed requests may have changed the tree.
	steps = append(steps, step{reqChildren(s, "/"), wantChildren("e", "eph")},
		step{reqChildren(s, "/e"), wantChildren("k")}, step{reqGet(s, "/e"), wantData("x", 1)})
	x.runScript("error script", 1, steps)
}

// errorScript provokes each error code of a tree operation, with
// ZooKeeper's answers. (Bad paths are added by testErrorCodes: ZooKeeper's
// clients refuse them before sending.)
func errorScript(s int64) []step {
	return []step{
		{reqCreate(s, "/e", "", pers), wantName("/e")},
		{reqCreate(s, "/e", "", pers), wantErr(wantNodeExists)},
		{reqCreate(s, "/missing/child", "", pers), wantErr(wantNoNode)},
		{reqDelete(s, "/nope", -1), wantErr(wantNoNode)},
		{reqSet(s, "/nope", "x", -1), wantErr(wantNoNode)},
		{reqGet(s, "/nope"), wantErr(wantNoNode)},
		{reqChildren(s, "/nope"), wantErr(wantNoNode)},
		{reqExists(s, "/nope"), wantErr(wantNoNode)},
		{reqSet(s, "/e", "x", 5), wantErr(wantBadVersion)},
		{reqDelete(s, "/e", 5), wantErr(wantBadVersion)},
		{reqSet(s, "/e", "x", 0), wantVersion(1)},
		{reqSet(s, "/e", "y", 0), wantErr(wantBadVersion)},
		{reqCreate(s, "/e/k", "", pers), wantName("/e/k")},
		{reqDelete(s, "/e", -1), wantErr(wantNotEmpty)},
		{reqCreate(s, "/eph", "", eph), wantName("/eph")},
		{reqCreate(s, "/eph/x", "", pers), wantErr(wantNoChildrenForEphemerals)},
		{reqCreate(s, "/eph/y", "", eph), wantErr(wantNoChildrenForEphemerals)},
	}
}

func testStatFields(c *T) {
	x := c.start(1, svctest.Options{})
	s := x.session(1, longSession)
	x.create(1, s, "/s", "abc", pers)
	_, st := x.getData(1, s, "/s")
	z1 := st.Czxid
	c.expectStat("after create /s", st, mwzookeeper.MWStat{Czxid: z1, Mzxid: z1, Pzxid: z1, Ctime: st.Ctime, Mtime: st.Ctime, DataLength: 3})
	if z1 <= 0 || st.Ctime <= 0 {
		c.failf("getData /s after create", "a positive czxid and ctime", "stat "+statText(st))
	}
	if ex, _ := x.exists(1, s, "/s"); ex != st {
		c.failf("exists /s", "the stat getData gave, "+statText(st), "stat "+statText(ex))
	}
	set := x.setData(1, s, "/s", "hello", 0)
	z2 := set.Mzxid
	if z2 <= z1 {
		c.failf("setData /s", fmt.Sprintf("an mzxid above the czxid %#x", z1), "stat "+statText(set))
	}
	c.expectStat("the reply of setData /s", set, mwzookeeper.MWStat{Czxid: z1, Mzxid: z2, Pzxid: z1, Ctime: st.Ctime, Mtime: set.Mtime, Version: 1, DataLength: 5})
	if set.Mtime < st.Ctime {
		c.failf("setData /s", fmt.Sprintf("an mtime not before the ctime %d", st.Ctime), "stat "+statText(set))
	}
	if _, again := x.getData(1, s, "/s"); again != set {
		c.failf("getData /s after setData", "the stat setData replied, "+statText(set), "stat "+statText(again))
	}
	x.create(1, s, "/s/c1", "", pers)
	_, c1 := x.getData(1, s, "/s/c1")
	_, parent := x.getData(1, s, "/s")
	c.expectStat("/s after create /s/c1", parent, mwzookeeper.MWStat{Czxid: z1, Mzxid: z2, Pzxid: c1.Czxid, Ctime: st.Ctime, Mtime: set.Mtime, Version: 1, Cversion: 1, DataLength: 5, NumChildren: 1})
	x.create(1, s, "/s/c2", "", eph)
	_, c2 := x.getData(1, s, "/s/c2")
	if c2.EphemeralOwner != s {
		c.failf("getData /s/c2 (ephemeral)", fmt.Sprintf("ephemeralOwner %#x, the creating session", s), "stat "+statText(c2))
	}
	// A delete counts in the parent's cversion, as mwzookeeper.MWStat
	// says and as Apache ZooKeeper 3.8's stat shows.
	x.delete(1, s, "/s/c1", -1)
	_, parent = x.getData(1, s, "/s")
	if parent.Pzxid <= c2.Czxid {
		c.failf("getData /s after delete /s/c1", fmt.Sprintf("a pzxid above %#x (the zxid of create /s/c2, the last change before: the delete's zxid is higher)", c2.Czxid), "stat "+statText(parent))
	}
	c.expectStat("/s after delete /s/c1", parent, mwzookeeper.MWStat{Czxid: z1, Mzxid: z2, Pzxid: parent.Pzxid, Ctime: st.Ctime, Mtime: set.Mtime, Version: 1, Cversion: 3, DataLength: 5, NumChildren: 1})
}

// expectStat fails unless got equals want field by field.
func (c *T) expectStat(what string, got, want mwzookeeper.MWStat) {
	c.Helper()
	if got != want {
		c.failf(what, "stat "+statText(want), "stat "+statText(got))
	}
}

func testAnsweredAtDelivery(c *T) {
	x := c.start(1, svctest.Options{})
	writer, other := x.session(1, longSession), x.session(1, longSession)
	var readZxid int64 // the zxid of other's last read reply
	for k := 0; k < 20; k++ {
		p := fmt.Sprintf("/d%d", k)
		req := reqCreate(writer, p, "v0", pers)
		r := x.ok(1, req, fmt.Sprintf("the created name %q", p))
		// The reply must come after the create was applied: another
		// session's read, submitted only now, sees the node.
		st, found := x.exists(1, other, p)
		if !found {
			c.failf(fmt.Sprintf("exists %s by another session right after the reply of create %s", p, p),
				"the node (the create was answered, so it was applied)", "error NoNode: the create was answered before it was applied")
		}
		if r.Zxid != st.Czxid {
			c.failf(on(req, 1), fmt.Sprintf("a reply zxid equal to the node's czxid %#x", st.Czxid), fmt.Sprintf("reply zxid %#x", r.Zxid))
		}
		sreq := reqSet(writer, p, "v1", 0)
		sr := x.ok(1, sreq, "the node's new stat")
		if sr.Zxid != sr.Stat.Mzxid || sr.Stat.Version != 1 {
			c.failf(on(sreq, 1), "a reply zxid equal to the stat's mzxid, and version 1", fmt.Sprintf("reply zxid %#x and stat %s", sr.Zxid, statText(sr.Stat)))
		}
		greq := reqGet(other, p)
		gr := x.ok(1, greq, "the node's data and stat")
		if string(gr.Data) != "v1" || gr.Stat.Mzxid != sr.Zxid {
			c.failf(fmt.Sprintf("getData %s by another session right after the reply of setData", p),
				fmt.Sprintf("data \"v1\" with mzxid %#x", sr.Zxid), fmt.Sprintf("data %q with stat %s", gr.Data, statText(gr.Stat)))
		}
		// A read's reply carries the zxid the replica has applied: at
		// least the write's, and never less than the session saw before
		// (a client reconnects only to a replica that has applied it).
		if gr.Zxid < sr.Zxid || gr.Zxid < readZxid {
			c.failf(on(greq, 1)+" right after the reply of setData", fmt.Sprintf("a reply zxid of at least %#x (the applied zxid; the setData's is %#x, the session's last read's %#x)", max(sr.Zxid, readZxid), sr.Zxid, readZxid),
				fmt.Sprintf("reply zxid %#x", gr.Zxid))
		}
		readZxid = gr.Zxid
	}
}

// conflict submits a and b (from different sessions) back to back, and
// returns their replies.
func (x *ens) conflict(i int, a, b *mwzookeeper.Request) (ra, rb *mwzookeeper.Response) {
	x.c.Helper()
	ca, cb := x.submit(i, a, nil), x.submit(i, b, nil)
	return x.await(i, a, ca).Response, x.await(i, b, cb).Response
}

// oneWins checks that exactly one of two conflicting writes succeeded
// and the other failed with loser's code.
func (c *T) oneWins(a, b *mwzookeeper.Request, ra, rb *mwzookeeper.Response, loser error) {
	c.Helper()
	okA, okB := ra.Err == nil, rb.Err == nil
	if okA == okB || (!okA && !sameCode(ra.Err, loser)) || (!okB && !sameCode(rb.Err, loser)) {
		c.failf(fmt.Sprintf("%s and %s by two sessions, in flight together", opText(a), opText(b)),
			"one success and one error "+codeText(loser)+" (the first in Zab's order wins, decided when applied)",
			fmt.Sprintf("%s and %s", describe(a, ra), describe(b, rb)))
	}
}

func testDecidedAtApply(c *T) {
	x := c.start(1, svctest.Options{})
	sa, sb := x.session(1, longSession), x.session(1, longSession)
	for k := 0; k < 10; k++ {
		p := fmt.Sprintf("/race%d", k)
		a, b := reqCreate(sa, p, "a", pers), reqCreate(sb, p, "b", pers)
		ra, rb := x.conflict(1, a, b)
		c.oneWins(a, b, ra, rb, wantNodeExists)
		a, b = reqSet(sa, p, "a1", 0), reqSet(sb, p, "b1", 0)
		ra, rb = x.conflict(1, a, b)
		c.oneWins(a, b, ra, rb, wantBadVersion)
		a, b = reqDelete(sa, p, 1), reqDelete(sb, p, 1)
		ra, rb = x.conflict(1, a, b)
		c.oneWins(a, b, ra, rb, wantNoNode)
	}
}
