package server

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"zablab/internal/realzk"
	mw "zablab/mwzookeeper"
)

// watchScript is one connection's run of addWatch, removeWatches and
// checkWatches against a server; it logs every request's error code (and
// the size of a watch op's reply body) and every event received before
// that reply, in order.
type watchScript struct {
	t   *testing.T
	r   *raw
	xid int32
	out []string
}

// call sends a request of op with body and logs the events before its
// reply and the reply's code.
func (w *watchScript) call(op mw.OpCode, what string, body []byte) {
	w.t.Helper()
	w.xid++
	w.r.frame(append(be32(be32(nil, w.xid), int32(op)), body...))
	for {
		b := w.r.readFrame()
		if len(b) < 16 {
			w.t.Fatalf("%s %s: frame of %d bytes", op, what, len(b))
		}
		xid, code := int32(binary.BigEndian.Uint32(b)), int32(binary.BigEndian.Uint32(b[12:]))
		if xid == -1 {
			typ := mw.EventType(int32(binary.BigEndian.Uint32(b[16:])))
			w.out = append(w.out, fmt.Sprintf("  event %s %s", typ, b[28:]))
			continue
		}
		line := fmt.Sprintf("%s %s: %d", op, what, code)
		if op == mw.OpAddWatch || op == mw.OpRemoveWatches || op == mw.OpCheckWatches {
			line += fmt.Sprintf(" (body %d bytes)", len(b)-16)
		}
		w.out = append(w.out, line)
		return
	}
}

// create creates p, persistent, empty, world:anyone with every permission.
func (w *watchScript) create(p string) {
	b := be32(be32(be32(jstr(nil, p), 0), 1), 31) // path, no data, one ACL, perms all
	w.call(mw.OpCreate, p, be32(jstr(jstr(b, "world"), "anyone"), 0))
}

func (w *watchScript) addWatch(p string, mode int32) {
	w.call(mw.OpAddWatch, fmt.Sprintf("%s mode %d", p, mode), be32(jstr(nil, p), mode))
}

func (w *watchScript) remove(op mw.OpCode, p string, typ int32) {
	w.call(op, fmt.Sprintf("%s type %d", p, typ), be32(jstr(nil, p), typ))
}

func (w *watchScript) setData(p string) { w.call(mw.OpSetData, p, be32(jstr(jstr(nil, p), "x"), -1)) }
func (w *watchScript) del(p string)     { w.call(mw.OpDelete, p, be32(jstr(nil, p), -1)) }
func (w *watchScript) read(op mw.OpCode, p string) {
	w.call(op, p+" watch", append(jstr(nil, p), 1))
}

// persistentWatchScript runs addWatch of both modes, writes at, below and
// above the watched paths, removeWatches and checkWatches of every type,
// and setWatches2's persistent lists on a second connection; it returns
// the log of both connections.
func persistentWatchScript(t *testing.T, addr string) []string {
	w := &watchScript{t: t, r: dialAddr(t, addr)}
	w.r.connect(0, make([]byte, 16), 4000)
	w.create("/pw")
	w.create("/pw/a")
	w.addWatch("/pw", 0)
	w.addWatch("/pr", 1) // not there yet
	w.create("/pr")
	w.create("/pr/x")
	w.create("/pr/x/y")
	w.setData("/pr/x/y")
	w.setData("/pr")
	w.create("/pw/b")
	w.setData("/pw")
	w.setData("/pw")
	w.setData("/pw/a")
	w.create("/pw/a/deep")
	for typ := int32(0); typ <= 6; typ++ {
		w.remove(mw.OpCheckWatches, "/pw", typ)
		w.remove(mw.OpCheckWatches, "/pr", typ)
	}
	w.read(mw.OpGetData, "/pr/x") // a one-shot watch below a recursive one
	w.setData("/pr/x")
	w.setData("/pr/x")
	w.read(mw.OpGetData, "/pw") // a one-shot data watch beside a persistent one
	w.setData("/pw")
	w.setData("/pw")
	w.create("/pw/c")
	w.removals()
	out := w.out
	return append(out, setWatches2Script(t, addr)...)
}

// removals runs removeWatches and checkWatches of every type on the
// watches persistentWatchScript left, and one on a missing node, with
// writes in between, and ends with bad modes and paths.
func (w *watchScript) removals() {
	w.read(mw.OpExists, "/nx") // an exists watch on a missing node
	for typ := int32(1); typ <= 5; typ++ {
		w.remove(mw.OpCheckWatches, "/nx", typ)
	}
	w.remove(mw.OpRemoveWatches, "/nx", 1)
	w.remove(mw.OpRemoveWatches, "/nx", 2)
	w.remove(mw.OpRemoveWatches, "/nx", 2)
	w.create("/nx")
	for _, typ := range []int32{4, 5, 1, 1, 0, 6} {
		w.remove(mw.OpRemoveWatches, "/pw", typ)
	}
	w.create("/pw/d")
	w.setData("/pw")
	w.remove(mw.OpRemoveWatches, "/pr", 3)
	w.remove(mw.OpRemoveWatches, "/pr", 3)
	w.create("/pr/z")
	w.addWatch("/pw", 0)
	w.read(mw.OpGetChildren, "/pw")
	for _, c := range []string{"/pw/a/deep", "/pw/a", "/pw/b", "/pw/c", "/pw/d", "/pw"} {
		w.del(c)
	}
	w.create("/pw")
	w.addWatch("/", 1)
	w.create("/top")
	w.del("/top")
	w.remove(mw.OpRemoveWatches, "/", 2)
	w.addWatch("/pr", 2)
	w.addWatch("/pr", -1)
	w.addWatch("no path", 0)
	w.remove(mw.OpCheckWatches, "no path", 2)
	w.remove(mw.OpRemoveWatches, "no path", 3)
	w.remove(mw.OpRemoveWatches, "/pr", 3)
}

// setWatches2Script sends setWatches2 with persistent and recursive lists
// on a new session and writes where they watch.
func setWatches2Script(t *testing.T, addr string) []string {
	w := &watchScript{t: t, r: dialAddr(t, addr)}
	w.r.connect(0, make([]byte, 16), 4000)
	var b []byte
	b = be64(b, 0) // relativeZxid
	for _, list := range [][]string{nil, nil, nil, {"/sw"}, {"/sr"}} {
		b = be32(b, int32(len(list)))
		for _, p := range list {
			b = jstr(b, p)
		}
	}
	w.call(mw.OpSetWatches2, "persistent /sw, recursive /sr", b)
	w.create("/sw")
	w.create("/sw/c")
	w.create("/sr")
	w.create("/sr/c")
	w.setData("/sw")
	w.remove(mw.OpCheckWatches, "/sw", 1)
	w.remove(mw.OpCheckWatches, "/sr", 1)
	w.remove(mw.OpCheckWatches, "/sr", 2)
	w.remove(mw.OpCheckWatches, "/pw", 2) // the first session's watch
	w.remove(mw.OpRemoveWatches, "/pw", 2)
	return w.out
}

// TestPersistentWatchesAsZooKeeper runs one script of addWatch,
// removeWatches and checkWatches against Apache ZooKeeper 3.8 and against
// ours, and compares the events and error codes each sent.
func TestPersistentWatchesAsZooKeeper(t *testing.T) {
	want := persistentWatchScript(t, realzk.StartT(t))
	got := persistentWatchScript(t, startA5(t, "").Addr().String())
	sameLines(t, want, got)
	if t.Failed() || testing.Verbose() {
		t.Logf("ZooKeeper 3.8:\n%s", strings.Join(want, "\n"))
	}
}
