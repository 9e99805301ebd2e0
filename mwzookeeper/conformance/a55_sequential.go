package conformance

import (
	"fmt"
	"sort"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// A5.5 (optional): sequential nodes.
var sequentialTests = []test{
	{"A5.5", "SequentialNames", 3, "a sequential create appends the parent's cversion as %010d, deletes counted", testSequentialNames},
	{"A5.5", "EphemeralSequential", 2, "ephemeral sequential creates from sessions on three replicas get distinct names 0..n-1 and their session as owner", testEphemeralSequential},
}

const (
	seq    = mwzookeeper.PersistentSequential
	ephSeq = mwzookeeper.EphemeralSequential
)

func testSequentialNames(c *T) {
	x := c.start(1, svctest.Options{})
	s := x.session(1, longSession)
	x.runScript("sequential script", 1, sequentialScript(s))
	x.runScriptBy("sequential names across deletes", "the course's rule: the suffix is the parent's cversion, deletes counted", 1, acrossDeletes(s))
}

// acrossDeletes continues sequentialScript in the same tree: the course's suffix is the
// parent's cversion at apply time, which counts deletes too, so names
// never repeat after a delete (a suffix from the number of children
// would). Apache ZooKeeper 3.8 differs here, so this part is not
// compared with it.
func acrossDeletes(s int64) []step {
	return []step{
		{reqDelete(s, "/q/x", -1), wantOK()},
		{reqCreate(s, "/q/item-", "e", seq), wantName("/q/item-0000000008")},
		{reqDelete(s, "/q/item-0000000000", -1), wantOK()},
		{reqDelete(s, "/q/item-0000000001", -1), wantOK()},
		{reqCreate(s, "/q/item-", "f", seq), wantName("/q/item-0000000011")},
		{reqChildren(s, "/q"), wantChildren("0000000004", "item-0000000003", "item-0000000007", "item-0000000008", "item-0000000011", "lock-0000000005")},
	}
}

// sequentialScript names sequential nodes as ZooKeeper does: the
// parent's cversion, which plain creates count too. (It leaves deletes
// out: ZooKeeper 3.8 counts a delete in the stat's cversion but not in
// its next sequential suffix; the course takes the cversion.)
func sequentialScript(s int64) []step {
	return []step{
		{reqCreate(s, "/q", "", pers), wantName("/q")},
		{reqCreate(s, "/q/item-", "a", seq), wantName("/q/item-0000000000")},
		{reqCreate(s, "/q/item-", "b", seq), wantName("/q/item-0000000001")},
		{reqCreate(s, "/q/x", "", pers), wantName("/q/x")},
		{reqCreate(s, "/q/item-", "c", seq), wantName("/q/item-0000000003")},
		{reqCreate(s, "/q/", "d", seq), wantName("/q/0000000004")},
		{reqCreate(s, "/q/lock-", "", ephSeq), wantName("/q/lock-0000000005")},
		{reqChildren(s, "/q"), wantChildren("0000000004", "item-0000000000", "item-0000000001", "item-0000000003", "lock-0000000005", "x")},
		{reqGet(s, "/q/item-0000000001"), wantData("b", 0)},
		{reqCreate(s, "/q/item-0000000007", "", pers), wantName("/q/item-0000000007")},
		{reqCreate(s, "/q/item-", "", seq), wantErr(wantNodeExists)},
	}
}

func testEphemeralSequential(c *T) {
	x := c.start(3, svctest.Options{})
	x.create(1, x.reader(1), "/locks", "", pers)
	var reqs []*mwzookeeper.Request
	var from []int
	var chs []<-chan reply
	for i := 1; i <= 3; i++ {
		s := x.session(i, longSession)
		for k := 0; k < 5; k++ {
			req := reqCreate(s, "/locks/lock-", "", ephSeq)
			reqs, from = append(reqs, req), append(from, i)
			chs = append(chs, x.submit(i, req, nil))
		}
	}
	owner := map[string]int64{}
	var names []string
	for k, ch := range chs {
		r := x.await(from[k], reqs[k], ch)
		if r.Err != nil {
			c.failf(on(reqs[k], from[k]), "a created name \"/locks/lock-\" followed by ten digits", describe(reqs[k], r.Response))
		}
		names = append(names, r.Path)
		owner[r.Path] = reqs[k].Session
	}
	sort.Strings(names)
	for k, n := range names {
		if want := fmt.Sprintf("/locks/lock-%010d", k); n != want {
			c.failf("15 ephemeral sequential creates of /locks/lock- from three replicas",
				fmt.Sprintf("the names /locks/lock-0000000000 to -0000000014, each once (number %d of them is %q)", k+1, want),
				fmt.Sprintf("the names %q", names))
		}
	}
	tree := x.sameEverywhere("the trees of the three replicas after the sequential creates")
	for _, n := range names {
		if z := tree[n]; z.stat.EphemeralOwner != owner[n] {
			c.failf("getData "+n, fmt.Sprintf("ephemeralOwner %#x, the session that created it", owner[n]), "stat "+statText(z.stat))
		}
	}
}
