package server

// Watches against ZooKeeper 3.8 at the wire: setWatches after changes made
// while a client was away, and the events of multis (a differential
// review's scripts; ours first, then ZooKeeper).

import (
	"fmt"
	"testing"

	"zablab/internal/realzk"
	mw "zablab/mwzookeeper"
)

// setWatchesScript: changes made while a client was away (after the zxid
// it had seen), then setWatches from a new connection with that
// relativeZxid: which watches fire at once, which are registered and
// fire at the next change, and the events' header zxid.
func setWatchesScript(t *testing.T, addr string) []string {
	var out []string
	w := dialAddr(t, addr)
	w.connect(0, make([]byte, 16), 10000)
	xid := int32(0)
	do := func(what string, op mw.OpCode, body []byte) int64 {
		xid++
		code, z, _, evs := rawCall(w, xid, op, body)
		out = append(out, evs...)
		if code != 0 {
			out = append(out, fmt.Sprintf("%s: %d", what, code))
		}
		return z
	}
	mk := func(p string) int64 { return do("create "+p, mw.OpCreate, createBody(p, 0)) }
	set := func(p string) { do("set "+p, mw.OpSetData, be32(jstr(jstr(nil, p), "x"), -1)) }
	del := func(p string) { do("delete "+p, mw.OpDelete, be32(jstr(nil, p), -1)) }
	for _, p := range []string{"/sw", "/sw/d", "/sw/gone", "/sw/recr", "/sw/kids", "/sw/kids/k1", "/sw/quiet", "/sw/quiet/q"} {
		mk(p)
	}
	rel := mk("/sw/last")
	// while the watcher is away
	set("/sw/d")
	del("/sw/gone")
	del("/sw/recr")
	mk("/sw/recr")
	mk("/sw/new")
	mk("/sw/blip")
	del("/sw/blip")
	set("/sw/kids/k1")
	set("/sw/kids")
	// the watcher comes back
	r := dialAddr(t, addr)
	r.connect(0, make([]byte, 16), 10000)
	var b []byte
	b = be64(b, rel)
	for _, list := range [][]string{
		{"/sw/d", "/sw/gone", "/sw/recr", "/sw/quiet", "/sw/kids/k1"},
		{"/sw/new", "/sw/blip", "/sw/absent", "/sw/d"},
		{"/sw", "/sw/gone", "/sw/kids", "/sw/quiet", "/sw/kids/k1"},
	} {
		b = be32(b, int32(len(list)))
		for _, p := range list {
			b = jstr(b, p)
		}
	}
	code, _, _, evs := rawCall(r, -8, mw.OpSetWatches, b)
	out = append(out, "setWatches:")
	out = append(out, evs...)
	out = append(out, fmt.Sprintf("setWatches reply: %d", code))
	_, _, _, evs = rawCall(r, 1, mw.OpExists, append(jstr(nil, "/"), 0))
	out = append(out, evs...)
	// the next changes
	set("/sw/quiet")
	mk("/sw/quiet/q2")
	mk("/sw/blip")
	mk("/sw/absent")
	set("/sw/kids/k1")
	mk("/sw/kids/k2")
	set("/sw/new")
	set("/sw/d")
	mk("/sw/more")
	out = append(out, "after the next changes:")
	_, _, _, evs = rawCall(r, 2, mw.OpExists, append(jstr(nil, "/"), 0))
	out = append(out, evs...)
	// a relativeZxid ahead of the server
	r2 := dialAddr(t, addr)
	r2.connect(0, make([]byte, 16), 10000)
	b = be64(nil, 1<<40)
	for _, list := range [][]string{{"/sw/d"}, {"/sw/d", "/sw/none"}, {"/sw/kids", "/sw/none"}} {
		b = be32(b, int32(len(list)))
		for _, p := range list {
			b = jstr(b, p)
		}
	}
	code, _, _, evs = rawCall(r2, -8, mw.OpSetWatches, b)
	out = append(out, "setWatches ahead:")
	out = append(out, evs...)
	out = append(out, fmt.Sprintf("setWatches ahead reply: %d", code))
	return out
}

func TestSetWatchesAsZooKeeper(t *testing.T) {
	got := setWatchesScript(t, startA5(t, "").Addr().String())
	want := setWatchesScript(t, realzk.StartTWith(t))
	// Events carry the zxid of their change here, as ZooKeeper 3.9 sends
	// (3.8 sends -1; a deliberate difference): the header zxid is left out.
	againstZooKeeper(t, want, got, func(w, g string) bool {
		return headerZxid.ReplaceAllString(w, "") == headerZxid.ReplaceAllString(g, "")
	})
}

// multiSetDataOp is a multi's setData op of any version.
func multiSetDataOp(path string) []byte {
	return be32(jstr(jstr(be32(append(be32(nil, 5), 0), -1), path), "v"), -1)
}

func multiBody(ops ...[]byte) []byte {
	var b []byte
	for _, op := range ops {
		b = append(b, op...)
	}
	return be32(append(be32(b, -1), 1), -1)
}

// multiEventsScript: multis that create, change and delete one node
// (and a subtree) in one transaction, watched with a recursive watch by
// the writer, and with one-shot and persistent watches by another
// session; a failing multi after them. Both sessions' events in order.
func multiEventsScript(t *testing.T, addr string) []string {
	w := &watchScript{t: t, r: dialAddr(t, addr)}
	w.r.connect(0, make([]byte, 16), 4000)
	o := &watchScript{t: t, r: dialAddr(t, addr)}
	o.r.connect(0, make([]byte, 16), 4000)
	w.create("/mv")
	w.addWatch("/mv", 1)
	o.read(mw.OpExists, "/mv/x")
	o.read(mw.OpGetChildren, "/mv")
	o.addWatch("/mv/x", 0)
	w.call(mw.OpMulti, "[create /mv/x; set /mv/x; set /mv/x; delete /mv/x]", multiBody(
		multiCreateOp(1, "/mv/x", 0), multiSetDataOp("/mv/x"), multiSetDataOp("/mv/x"), multiDeleteOp("/mv/x")))
	o.read(mw.OpExists, "/")
	w.call(mw.OpMulti, "[create /mv/y; delete /mv/none]", multiBody(multiCreateOp(1, "/mv/y", 0), multiDeleteOp("/mv/none")))
	o.read(mw.OpExists, "/mv/p")
	o.read(mw.OpGetChildren, "/mv")
	w.call(mw.OpMulti, "[create /mv/p; create /mv/p/q; delete /mv/p/q; create /mv/x]", multiBody(
		multiCreateOp(1, "/mv/p", 0), multiCreateOp(1, "/mv/p/q", 0), multiDeleteOp("/mv/p/q"), multiCreateOp(1, "/mv/x", 0)))
	o.read(mw.OpExists, "/")
	out := append([]string{"writer:"}, w.out...)
	return append(append(out, "other:"), o.out...)
}

func TestMultiEventsAsZooKeeper(t *testing.T) {
	got := multiEventsScript(t, startA5(t, "").Addr().String())
	want := multiEventsScript(t, realzk.StartTWith(t))
	againstZooKeeper(t, want, got, nil)
}
