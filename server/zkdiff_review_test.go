package server

// Differential scripts a review wrote (multiRead's watch flag, getACL's
// redaction): each runs against ours first (it skips before a JVM starts
// where the reference is missing), then against Debian's Apache ZooKeeper
// 3.8, and compares line by line.

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/realzk"
	mw "zablab/mwzookeeper"
)

// multiReadOp is one op of a multiRead: MultiHeader{typ, done false, -1},
// then the read's request (path, watch flag).
func multiReadOp(typ mw.OpCode, path string, watch bool) []byte {
	b := be32(append(be32(nil, int32(typ)), 0), -1)
	w := byte(0)
	if watch {
		w = 1
	}
	return append(jstr(b, path), w)
}

// multiReadWatchScript: a multiRead whose getData and getChildren carry
// the watch flag set, then writes on the nodes they read, by the same
// connection (its events come before each write's reply). ZooKeeper 3.8
// rebuilds each read of a multiRead as Op.getData(path) and
// Op.getChildren(path), whose request records say watch=false: no watch
// is left, and no event comes.
func multiReadWatchScript(t *testing.T, addr string) []string {
	w := &watchScript{t: t, r: dialAddr(t, addr)}
	w.r.connect(0, make([]byte, 16), 4000)
	w.create("/mrw")
	w.create("/mrw/a")
	w.call(mw.OpMultiRead, "[getData /mrw/a watch; getChildren /mrw watch]", multiBody(
		multiReadOp(mw.OpGetData, "/mrw/a", true), multiReadOp(mw.OpGetChildren, "/mrw", true)))
	w.setData("/mrw/a")
	w.create("/mrw/b")
	w.del("/mrw/a")
	w.remove(mw.OpCheckWatches, "/mrw/a", 2)
	w.remove(mw.OpCheckWatches, "/mrw", 1)
	return w.out
}

func TestMultiReadWatchFlagAsZooKeeper(t *testing.T) {
	got := multiReadWatchScript(t, startA5(t, "").Addr().String())
	want := multiReadWatchScript(t, realzk.StartTWith(t))
	againstZooKeeper(t, want, got, nil)
}

// redactNewlineScript: getACL without ADMIN on a node whose digest entry
// has a line break in its hash part (a valid digest: one colon).
// ZooKeeper 3.8 hides the hash with id.replaceAll(":.*", ":x"), whose
// "." stops at the line break.
func redactNewlineScript(t *testing.T, addr string) []string {
	s := &scripter{t: t}
	c := zkClient(t, 5*time.Second, addr)
	_, err := c.Create("/rn", nil, 0, []zk.ACL{{Perms: zk.PermAll, Scheme: "digest", ID: "u:h1\nh2"},
		{Perms: zk.PermRead, Scheme: "world", ID: "anyone"}})
	s.note("create /rn", err)
	got, _, err := c.GetACL("/rn")
	s.note("getACL /rn without ADMIN", err, fmt.Sprintf("%q", aclText(got)))
	return s.out
}

func TestGetACLRedactsAsZooKeeper(t *testing.T) {
	got := redactNewlineScript(t, startA5(t, "").Addr().String())
	want := redactNewlineScript(t, realzk.StartTWith(t))
	againstZooKeeper(t, want, got, nil)
}
