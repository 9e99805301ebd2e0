package server

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/realzk"
)

// transcript records what a go-zookeeper client observes, with zxids and
// times replaced by how they relate.
type transcript struct {
	lines []string
	zxids map[int64]int
	sess  int64
}

func (tr *transcript) z(v int64) string {
	if _, ok := tr.zxids[v]; !ok {
		tr.zxids[v] = len(tr.zxids)
	}
	return fmt.Sprintf("z%d", tr.zxids[v])
}

// times says how a stat's times relate, not their values: two writes in
// the same millisecond share a time on one server and not on another.
func (tr *transcript) times(s *zk.Stat) string {
	switch {
	case s.Ctime == 0 && s.Mtime == 0:
		return "zero"
	case s.Mtime < s.Ctime:
		return "mtime<ctime"
	case s.Ctime == s.Mtime && s.Czxid == s.Mzxid:
		return "created"
	}
	return "set"
}

func (tr *transcript) stat(s *zk.Stat) string {
	if s == nil {
		return "<nil stat>"
	}
	owner := "0"
	if s.EphemeralOwner == tr.sess {
		owner = "me"
	} else if s.EphemeralOwner != 0 {
		owner = "other"
	}
	return fmt.Sprintf("{c=%s m=%s p=%s times=%s v=%d cv=%d av=%d own=%s len=%d kids=%d}",
		tr.z(s.Czxid), tr.z(s.Mzxid), tr.z(s.Pzxid), tr.times(s),
		s.Version, s.Cversion, s.Aversion, owner, s.DataLength, s.NumChildren)
}

func (tr *transcript) add(format string, args ...any) {
	tr.lines = append(tr.lines, fmt.Sprintf(format, args...))
}

func data(b []byte) string {
	if b == nil {
		return "null"
	}
	return fmt.Sprintf("%q", b)
}

func ev(ch <-chan zk.Event) string {
	select {
	case e := <-ch:
		return fmt.Sprintf("%s %s", e.Type, e.Path)
	case <-time.After(3 * time.Second):
		return "no event"
	}
}

// runScript runs the script on a new session at addr and returns its
// transcript.
func runScript(t *testing.T, addr string) []string {
	c := zkClient(t, 4*time.Second, addr)
	tr := &transcript{zxids: map[int64]int{}, sess: c.SessionID()}
	scriptTree(c, tr)
	scriptMulti(c, tr)
	scriptWatches(c, tr)
	return tr.lines
}

// scriptTree: creates (null and empty data, sequential, ephemeral), the
// usual errors, exists, children, setData and deletes.
func scriptTree(c *zk.Conn, tr *transcript) {
	p, err := c.Create("/r", []byte("x"), 0, acl)
	tr.add("create /r: %s %v", p, err)
	for _, name := range []string{"/r/n", "/r/e"} {
		var d []byte
		if name == "/r/e" {
			d = []byte{}
		}
		_, err := c.Create(name, d, 0, acl)
		b, st, err2 := c.Get(name)
		tr.add("create %s %v; get: %s %s %v", name, err, data(b), tr.stat(st), err2)
	}
	for i := 0; i < 3; i++ {
		p, err := c.Create("/r/s-", nil, zk.FlagSequence, acl)
		tr.add("seq: %s %v", p, err)
	}
	tr.add("delete seq1: %v", c.Delete("/r/s-0000000003", -1))
	p, err = c.Create("/r/s-", nil, zk.FlagSequence, acl)
	tr.add("seq after delete: %s %v", p, err)
	p, err = c.Create("/r/", nil, zk.FlagSequence, acl)
	tr.add("seq trailing slash: %s %v", p, err)
	p, err = c.Create("/r/eph", []byte("e"), zk.FlagEphemeral, acl)
	tr.add("ephemeral: %s %v", p, err)
	_, err = c.Create("/r/eph/c", nil, 0, acl)
	tr.add("child of ephemeral: %v", err)
	_, err = c.Create("/nope/x", nil, 0, acl)
	tr.add("no parent: %v", err)
	_, err = c.Create("/", nil, 0, acl)
	tr.add("create /: %v", err)
	tr.add("delete /: %v", c.Delete("/", -1))
	ok, st, err := c.Exists("/r/missing")
	tr.add("exists missing: %v %s %v", ok, tr.stat(st), err)
	ok, st, err = c.Exists("/r/eph")
	tr.add("exists eph: %v %s %v", ok, tr.stat(st), err)
	kids, st, err := c.Children("/r")
	slices.Sort(kids) // ZooKeeper does not sort
	tr.add("children2 /r: %v %s %v", kids, tr.stat(st), err)
	kids, st, err = c.Children("/r/missing")
	tr.add("children2 missing: %v %s %v", kids, tr.stat(st), err)
	st, err = c.Set("/r", []byte("y"), 5)
	tr.add("set bad version: %s %v", tr.stat(st), err)
	st, err = c.Set("/r", nil, -1)
	tr.add("set nil: %s %v", tr.stat(st), err)
	b, st, err := c.Get("/r")
	tr.add("get after set nil: %s %s %v", data(b), tr.stat(st), err)
	st, err = c.Set("/r", []byte("z"), 1)
	tr.add("set v1: %s %v", tr.stat(st), err)
	tr.add("delete nonempty: %v", c.Delete("/r", -1))
	tr.add("delete missing: %v", c.Delete("/r/missing", -1))
	tr.add("delete bad version: %v", c.Delete("/r/e", 3))
}

// scriptMulti: multis that succeed and fail, sync, ACLs.
func scriptMulti(c *zk.Conn, tr *transcript) {
	res, err := c.Multi(&zk.CreateRequest{Path: "/r/m1", Data: []byte("1"), Acl: acl},
		&zk.SetDataRequest{Path: "/r/m1", Data: []byte("2"), Version: 0},
		&zk.CheckVersionRequest{Path: "/r/m1", Version: 1},
		&zk.DeleteRequest{Path: "/r/m1", Version: -1})
	tr.add("multi ok: %v", err)
	for i, r := range res {
		tr.add("  %d: %q %s %v", i, r.String, tr.stat(r.Stat), r.Error)
	}
	res, err = c.Multi(&zk.CreateRequest{Path: "/r/m2", Acl: acl},
		&zk.CheckVersionRequest{Path: "/r", Version: 99},
		&zk.SetDataRequest{Path: "/r", Version: -1})
	tr.add("multi fail: %v", err)
	for i, r := range res {
		tr.add("  %d: %q %s %v", i, r.String, tr.stat(r.Stat), r.Error)
	}
	res, err = c.Multi(&zk.DeleteRequest{Path: "/r/missing", Version: -1}, &zk.CreateRequest{Path: "/r/m3", Acl: acl})
	tr.add("multi fail first: %v", err)
	for i, r := range res {
		tr.add("  %d: %q %s %v", i, r.String, tr.stat(r.Stat), r.Error)
	}
	res, err = c.Multi()
	tr.add("multi empty: %d %v", len(res), err)
	p, err := c.Sync("/r")
	tr.add("sync: %q %v", p, err)
	_, err = c.Create("/r/acl", nil, 0, nil)
	tr.add("create with empty acl: %v", err)
	acls, st, err := c.GetACL("/r")
	tr.add("getacl: %v %s %v", acls, tr.stat(st), err)
	acls, _, err = c.GetACL("/r/missing")
	tr.add("getacl missing: %v %v", acls, err)
	res, err = c.Multi(&zk.CreateRequest{Path: "/r/a1", Acl: acl}, &zk.CreateRequest{Path: "/r/a2"},
		&zk.SetDataRequest{Path: "/r", Version: -1})
	tr.add("multi with empty acl: %v", err)
	for i, r := range res {
		tr.add("  %d: %q %s %v", i, r.String, tr.stat(r.Stat), r.Error)
	}

}

// scriptWatches: exists, data and child watches firing.
func scriptWatches(c *zk.Conn, tr *transcript) {
	// Watches.
	_, _, ch, err := c.ExistsW("/r/w")
	tr.add("existsw missing: %v", err)
	c.Create("/r/w", []byte("w"), 0, acl)
	tr.add("  event: %s", ev(ch))
	_, _, dch, _ := c.GetW("/r/w")
	_, _, cch, _ := c.ChildrenW("/r/w")
	_, _, pch, _ := c.ChildrenW("/r")
	c.Delete("/r/w", -1)
	tr.add("  data watch on delete: %s", ev(dch))
	tr.add("  child watch on delete: %s", ev(cch))
	tr.add("  parent child watch: %s", ev(pch))
	_, _, dch, _ = c.GetW("/r")
	c.Set("/r", []byte("q"), -1)
	tr.add("  data changed: %s", ev(dch))
	_, st, _ := c.Get("/r")
	tr.add("final /r: %s", tr.stat(st))
}

// acceptedDiff says whether a line of the script may differ from
// ZooKeeper's. One difference is known and accepted: after a child is
// deleted, ZooKeeper 3.8's next sequential name is one lower than the
// parent's cversion (both count the delete in cversion), while the course
// defines the suffix as the parent's cversion (the sheet's rule). The
// lines that show such names compare with the 10-digit suffixes masked.
func acceptedDiff(want, got string) bool {
	for _, p := range []string{"seq after delete:", "seq trailing slash:", "children2 /r:"} {
		if strings.HasPrefix(want, p) && strings.HasPrefix(got, p) {
			return seqDigits.ReplaceAllString(want, "N") == seqDigits.ReplaceAllString(got, "N")
		}
	}
	return false
}

var seqDigits = regexp.MustCompile(`[0-9]{10}`)

// TestDifferential runs one go-zookeeper script against Apache
// ZooKeeper 3.8 and against server.New + aufgabe5, and compares what the
// client saw (skipped without java or ZooKeeper's jars; about 3 s).
func TestDifferential(t *testing.T) {
	want := runScript(t, realzk.StartT(t))
	got := runScript(t, startA5(t, "").Addr().String())
	n := max(len(want), len(got))
	diffs := 0
	for i := 0; i < n; i++ {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g && !acceptedDiff(w, g) {
			diffs++
			t.Errorf("line %d:\n  zookeeper: %s\n  zablab:    %s", i, w, g)
		}
	}
	if diffs == 0 || os.Getenv("ZABLAB_REALZK_SHOW") != "" {
		t.Logf("zookeeper:\n%s\nzablab:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}
