package server

// A session with watches of every kind moves to another server of a
// 3-peer ensemble, against ZooKeeper 3.8 (a differential review's script;
// ours first, then ZooKeeper).

import (
	"fmt"
	"strings"
	"testing"

	"zablab/internal/realzk"
	mw "zablab/mwzookeeper"

	"zablab/solutions/aufgabe5"
)

// movedWatchesScript: a writer on the second server makes the nodes; the
// watcher's session on the first sets an exists, two data, a child, a
// persistent and a persistent recursive watch and leaves; the writer
// changes some of them; the session comes back on the third server with
// the last zxid it saw and setWatches2, and the writer changes them all
// again. Which events come, and how often, at each step.
func movedWatchesScript(t *testing.T, addrs []string) []string {
	var out []string
	events := func(evs []string) {
		for _, e := range evs {
			out = append(out, headerZxid.ReplaceAllString(e, ""))
		}
	}
	w := dialAddr(t, addrs[1])
	w.connect(0, make([]byte, 16), 10000)
	xid := int32(0)
	do := func(op mw.OpCode, body []byte) {
		xid++
		code, _, _, evs := rawCall(w, xid, op, body)
		events(evs)
		if code != 0 {
			out = append(out, fmt.Sprintf("writer's %s: %d", op, code))
		}
	}
	mk := func(p string) { do(mw.OpCreate, createBody(p, 0)) }
	set := func(p string) { do(mw.OpSetData, be32(jstr(jstr(nil, p), "x"), -1)) }
	for _, p := range []string{"/mv", "/mv/d", "/mv/c", "/mv/p", "/mv/r", "/mv/q"} {
		mk(p)
	}
	a := dialAddr(t, addrs[0])
	sess, pw, last := leaveMovedWatches(a, events, &out)
	a.nc.Close()
	set("/mv/d")
	mk("/mv/c/k")
	set("/mv/p")
	mk("/mv/r/x")
	// The third server applies the writes made while away before the
	// session comes: a persistent watch registered while it still lags
	// fires for the writes it applies later, in ZooKeeper as here, so
	// the script raced with that follower (a run of ours without
	// NodeCreated /mv/r/x, ZooKeeper's with it).
	sy := dialAddr(t, addrs[2])
	sy.connect(0, make([]byte, 16), 10000)
	if code, _, _, _ := rawCall(sy, 1, mw.OpSync, jstr(nil, "/mv")); code != 0 {
		out = append(out, fmt.Sprintf("sync on the third server: %d", code))
	}
	sy.nc.Close()
	b := dialAddr(t, addrs[2])
	d, _, _ := describeConnect(b, sess, pw, 10000, last)
	out = append(out, "on the third server: "+d[strings.Index(d, ", ")+2:])
	body := setWatches2Body(last, [][]string{{"/mv/d", "/mv/q"}, {"/mv/a"}, {"/mv/c"}, {"/mv/p"}, {"/mv/r"}})
	code, _, _, evs := rawCall(b, -8, mw.OpSetWatches2, body)
	events(evs)
	out = append(out, fmt.Sprintf("setWatches2: %d", code))
	// Events of changes the third server has applied come before the
	// answer to a sync there, and the writer's are applied there then.
	flush := func(x int32) {
		_, _, _, evs := rawCall(b, x, mw.OpSync, jstr(nil, "/mv"))
		events(evs)
		_, _, _, evs = rawCall(b, x+1, mw.OpExists, append(jstr(nil, "/"), 0))
		events(evs)
	}
	flush(1)
	out = append(out, "the next changes:")
	for _, p := range []string{"/mv/a", "/mv/c/k2", "/mv/r/x/y"} {
		mk(p)
	}
	for _, p := range []string{"/mv/d", "/mv/q", "/mv/p", "/mv/p", "/mv/a", "/mv/q"} {
		set(p)
	}
	flush(3)
	return out
}

// TestMovedWatchesAsZooKeeper: every watch comes back on the other
// server, the one-shot ones fire once for the changes made while away and
// are used up, the persistent ones fire for every later change and for
// none made while away, as in ZooKeeper 3.8. (Events carry the zxid of
// their change here, a deliberate difference: the header zxid is left
// out.)
func TestMovedWatchesAsZooKeeper(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two 3-server ensembles")
	}
	got := movedWatchesScript(t, startEnsemble(t, 3, aufgabe5.New).addrs)
	want := movedWatchesScript(t, realzk.StartEnsembleT(t, 3))
	againstZooKeeper(t, want, got, nil)
}

// leaveMovedWatches opens the session on the first server and leaves its
// watches there: it returns the session, its password and the newest zxid
// its replies carried.
func leaveMovedWatches(a *raw, events func([]string), out *[]string) (sess int64, pw []byte, last int64) {
	_, sess, pw = a.connect(0, make([]byte, 16), 10000)
	for i, c := range []struct {
		op   mw.OpCode
		body []byte
	}{
		{mw.OpSync, jstr(nil, "/mv")}, // the writer's nodes are here
		{mw.OpExists, append(jstr(nil, "/mv/a"), 1)},
		{mw.OpGetData, append(jstr(nil, "/mv/d"), 1)},
		{mw.OpGetChildren, append(jstr(nil, "/mv/c"), 1)},
		{mw.OpGetData, append(jstr(nil, "/mv/q"), 1)},
		{mw.OpAddWatch, be32(jstr(nil, "/mv/p"), 0)},
		{mw.OpAddWatch, be32(jstr(nil, "/mv/r"), 1)},
	} {
		code, z, _, evs := rawCall(a, int32(i+1), c.op, c.body)
		events(evs)
		*out = append(*out, fmt.Sprintf("on the first server, %s: %d", c.op, code))
		last = max(last, z)
	}
	return sess, pw, last
}

// setWatches2Body is a SetWatches2 request: relative zxid, then the paths
// of the data, exist, child, persistent and persistent recursive watches.
func setWatches2Body(last int64, lists [][]string) []byte {
	body := be64(nil, last)
	for _, list := range lists {
		body = be32(body, int32(len(list)))
		for _, p := range list {
			body = jstr(body, p)
		}
	}
	return body
}
