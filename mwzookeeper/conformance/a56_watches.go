package conformance

import (
	"fmt"
	"time"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// A5.6 (optional): watches. The watching session is on replica 2, the
// writer on replica 1: a watch fires on the watcher's own replica when it
// applies the write.
var watchTests = []test{
	{"A5.6", "DataWatch", 1, "getData leaves a watch that fires NodeDataChanged, then NodeDeleted", testDataWatch},
	{"A5.6", "ExistsWatch", 2, "exists on a missing node leaves a watch that fires NodeCreated, with a sequential node's name (getData and getChildren there leave none)", testExistsWatch},
	{"A5.6", "ChildWatch", 2, "getChildren and getChildren2 leave a watch that fires NodeChildrenChanged (not on setData of the node or a child), and NodeDeleted", testChildWatch},
	{"A5.6", "FireOnce", 1, "a watch fires once; a new read sets a new one", testFireOnce},
	{"A5.6", "EventBeforeReply", 2, "the event reaches the session before the reply of its next request (its own write, a sync, a read that sees the change)", testEventBeforeReply},
	{"A5.6", "CloseRemovesWatches", 1, "closing a session removes its watches, and the deletion of its ephemerals fires the others' watches", testCloseRemovesWatches},
	{"A5.6", "SetWatches", 1, "setWatches (the watches a client sends again on a new connection) leaves them, and fires at once those whose node changed after the client's last zxid", testSetWatches},
}

const (
	watcherReplica = 2
	writerReplica  = 1
	eventTimeout   = 5 * time.Second
)

// evText prints events as "NodeDataChanged /a".
func evText(evs []mwzookeeper.WatchEvent) string {
	out := "["
	for k, e := range evs {
		if k > 0 {
			out += ", "
		}
		out += e.Type.String() + " " + e.Path
	}
	return out + "]"
}

// expectEvents waits until session s on replica i got want (and only
// those, in order), then settles the replica and checks again that no
// further event came.
func (x *ens) expectEvents(i int, s int64, after string, want ...mwzookeeper.WatchEvent) {
	x.c.Helper()
	h := x.e.Host(i)
	matches := func() bool {
		got := h.Events(s)
		if len(got) != len(want) {
			return false
		}
		for k := range got {
			if got[k].Type != want[k].Type || got[k].Path != want[k].Path {
				return false
			}
		}
		return true
	}
	poll(eventTimeout, func() bool { return matches() || len(h.Events(s)) > len(want) })
	x.settle(i, x.reader(i))
	if !matches() {
		x.c.failf(fmt.Sprintf("the watch events of session %#x on replica %d %s", s, i, after), "events "+evText(want), "events "+evText(h.Events(s)))
	}
}

// ev is an event without its zxid.
func ev(t mwzookeeper.EventType, path string) mwzookeeper.WatchEvent {
	return mwzookeeper.WatchEvent{Type: t, Path: path}
}

// watchEnsemble starts three replicas and returns the watcher session (on
// replica 2) and the writer session (on replica 1).
func (c *T) watchEnsemble() (x *ens, w, wr int64) {
	c.Helper()
	x = c.start(3, svctest.Options{})
	return x, x.session(watcherReplica, longSession), x.reader(writerReplica)
}

func testDataWatch(c *T) {
	x, w, wr := c.watchEnsemble()
	x.create(writerReplica, wr, "/w", "a", pers)
	x.settle(watcherReplica, w)
	x.ok(watcherReplica, withWatch(reqGet(w, "/w")), "the node's data")
	x.setData(writerReplica, wr, "/w", "b", -1)
	x.expectEvents(watcherReplica, w, "after getData /w (watch) and a setData /w on another replica",
		ev(mwzookeeper.EventNodeDataChanged, "/w"))
	x.ok(watcherReplica, withWatch(reqGet(w, "/w")), "the node's data")
	x.delete(writerReplica, wr, "/w", -1)
	x.expectEvents(watcherReplica, w, "after getData /w (watch) again and a delete /w",
		ev(mwzookeeper.EventNodeDataChanged, "/w"), ev(mwzookeeper.EventNodeDeleted, "/w"))
}

func testExistsWatch(c *T) {
	x, w, wr := c.watchEnsemble()
	// Only exists waits for a missing node: getData and getChildren that
	// fail with NoNode leave no watch (as in ZooKeeper).
	x.expectErr(watcherReplica, withWatch(reqGet(w, "/w2g")), wantNoNode)
	x.expectErr(watcherReplica, withWatch(reqChildren(w, "/w2g")), wantNoNode)
	x.expectErr(watcherReplica, withWatch(reqExists(w, "/w2")), wantNoNode)
	x.create(writerReplica, wr, "/w2g", "", pers)
	x.delete(writerReplica, wr, "/w2g", -1)
	x.create(writerReplica, wr, "/w2", "", pers)
	x.expectEvents(watcherReplica, w, "after getData and getChildren /w2g (watch, NoNode), exists /w2 (watch, no such node), and a create and delete /w2g and a create /w2 on another replica",
		ev(mwzookeeper.EventNodeCreated, "/w2"))
	x.ok(watcherReplica, withWatch(reqExists(w, "/w2")), "the node's stat")
	x.setData(writerReplica, wr, "/w2", "x", -1)
	x.expectEvents(watcherReplica, w, "after exists /w2 (watch) and a setData /w2",
		ev(mwzookeeper.EventNodeCreated, "/w2"), ev(mwzookeeper.EventNodeDataChanged, "/w2"))
	// A sequential node's NodeCreated names the node created. A5.5 makes
	// the name; where the create does not return it, there is nothing to
	// check here.
	x.create(writerReplica, wr, "/wq", "", pers)
	x.settle(watcherReplica, w)
	name := mwzookeeper.SequentialName("/wq/n-", 0)
	x.expectErr(watcherReplica, withWatch(reqExists(w, name)), wantNoNode)
	if r := x.do(writerReplica, reqCreate(wr, "/wq/n-", "", mwzookeeper.PersistentSequential)); r.Err == nil && r.Path == name {
		x.expectEvents(watcherReplica, w, fmt.Sprintf("after exists %s (watch, no such node) and a sequential create /wq/n- that made it", name),
			ev(mwzookeeper.EventNodeCreated, "/w2"), ev(mwzookeeper.EventNodeDataChanged, "/w2"), ev(mwzookeeper.EventNodeCreated, name))
	}
}

func testChildWatch(c *T) {
	x, w, wr := c.watchEnsemble()
	x.create(writerReplica, wr, "/w3", "", pers)
	x.settle(watcherReplica, w)
	x.ok(watcherReplica, withWatch(reqChildren(w, "/w3")), "the node's children")
	x.setData(writerReplica, wr, "/w3", "x", -1)
	x.create(writerReplica, wr, "/w3/a", "", pers)
	x.expectEvents(watcherReplica, w, "after getChildren /w3 (watch), a setData /w3 and a create /w3/a on another replica",
		ev(mwzookeeper.EventNodeChildrenChanged, "/w3"))
	// getChildren2 leaves the same child watch. Where it fails (A5.1's
	// tree script charges that), getChildren sets it: a fault costs once.
	how := "getChildren2"
	if r := x.do(watcherReplica, withWatch(reqChildren2(w, "/w3"))); r.Err != nil {
		how = "getChildren (getChildren2 failed)"
		x.ok(watcherReplica, withWatch(reqChildren(w, "/w3")), "the node's children")
	}
	x.setData(writerReplica, wr, "/w3/a", "x", -1) // a child's data is not /w3's children
	x.expectEvents(watcherReplica, w, "after "+how+" /w3 (watch) and a setData /w3/a",
		ev(mwzookeeper.EventNodeChildrenChanged, "/w3"))
	x.delete(writerReplica, wr, "/w3/a", -1)
	x.expectEvents(watcherReplica, w, "after "+how+" /w3 (watch), a setData /w3/a and a delete /w3/a",
		ev(mwzookeeper.EventNodeChildrenChanged, "/w3"), ev(mwzookeeper.EventNodeChildrenChanged, "/w3"))
	x.ok(watcherReplica, withWatch(reqChildren(w, "/w3")), "the node's children")
	x.delete(writerReplica, wr, "/w3", -1)
	x.expectEvents(watcherReplica, w, "after a third getChildren /w3 (watch) and a delete /w3",
		ev(mwzookeeper.EventNodeChildrenChanged, "/w3"), ev(mwzookeeper.EventNodeChildrenChanged, "/w3"),
		ev(mwzookeeper.EventNodeDeleted, "/w3"))
}

func testFireOnce(c *T) {
	x, w, wr := c.watchEnsemble()
	x.create(writerReplica, wr, "/f", "", pers)
	x.settle(watcherReplica, w)
	x.ok(watcherReplica, withWatch(reqGet(w, "/f")), "the node's data")
	x.ok(watcherReplica, withWatch(reqGet(w, "/f")), "the node's data") // the same watch twice is one watch
	for k := 0; k < 3; k++ {
		x.setData(writerReplica, wr, "/f", fmt.Sprint(k), -1)
	}
	x.expectEvents(watcherReplica, w, "after getData /f (watch, twice) and three setData /f",
		ev(mwzookeeper.EventNodeDataChanged, "/f"))
	x.ok(watcherReplica, withWatch(reqGet(w, "/f")), "the node's data")
	x.setData(writerReplica, wr, "/f", "again", -1)
	x.expectEvents(watcherReplica, w, "after a new getData /f (watch) and another setData /f",
		ev(mwzookeeper.EventNodeDataChanged, "/f"), ev(mwzookeeper.EventNodeDataChanged, "/f"))
}

// eventSeen is a reply hook that records whether session s had received
// an event on path when the reply was given.
func (x *ens) eventSeen(i int, s int64, path string, seen *bool) func(*mwzookeeper.Response) {
	h := x.e.Host(i)
	return func(*mwzookeeper.Response) {
		for _, e := range h.Events(s) {
			if e.Path == path {
				*seen = true
			}
		}
	}
}

func testEventBeforeReply(c *T) {
	x, w, wr := c.watchEnsemble()
	x.create(watcherReplica, w, "/b", "", pers)
	x.ok(watcherReplica, withWatch(reqGet(w, "/b")), "the node's data")
	var seen bool
	req := reqSet(w, "/b", "own", -1)
	if r := x.await(watcherReplica, req, x.submit(watcherReplica, req, x.eventSeen(watcherReplica, w, "/b", &seen))); r.Err != nil {
		c.failf(on(req, watcherReplica), "the node's new stat", describe(req, r.Response))
	}
	if !seen {
		c.failf(fmt.Sprintf("%s by the session watching /b", on(req, watcherReplica)),
			"the NodeDataChanged event sent to the session before the reply", "the reply first, events "+evText(x.e.Host(watcherReplica).Events(w)))
	}
	x.create(writerReplica, wr, "/b2", "", pers)
	x.settle(watcherReplica, w)
	x.ok(watcherReplica, withWatch(reqGet(w, "/b2")), "the node's data")
	x.setData(writerReplica, wr, "/b2", "other", -1)
	seen = false
	sreq := reqSync(w)
	if r := x.await(watcherReplica, sreq, x.submit(watcherReplica, sreq, x.eventSeen(watcherReplica, w, "/b2", &seen))); r.Err != nil {
		c.failf(on(sreq, watcherReplica), "success", describe(sreq, r.Response))
	}
	if !seen {
		c.failf(fmt.Sprintf("sync on replica %d by the session watching /b2, after a setData /b2 on replica %d", watcherReplica, writerReplica),
			"the NodeDataChanged event sent to the session before the sync's reply", "the reply first, events "+evText(x.e.Host(watcherReplica).Events(w)))
	}
	x.readAfterHeldEvent(w, wr)
}

// holdWindow is how long readAfterHeldEvent gives a read to overtake a
// held event: far longer than a local read takes, well below Zab's
// timeouts (the held Notify may hold the replica's delivery goroutine).
const holdWindow = 100 * time.Millisecond

// readAfterHeldEvent: while the watcher's replica is inside Notify for a
// setData's event (held there by the Host), a getData of the watching
// session must not be answered with the new data: the event goes first
// (a Service that fires its events after releasing its apply lock lets
// the read through).
func (x *ens) readAfterHeldEvent(w, wr int64) {
	x.c.Helper()
	h := x.e.Host(watcherReplica)
	x.create(writerReplica, wr, "/b3", "old", pers)
	x.settle(watcherReplica, w)
	x.ok(watcherReplica, withWatch(reqGet(w, "/b3")), "the node's data")
	entered, release := h.HoldNotify(w)
	defer release()
	x.setData(writerReplica, wr, "/b3", "new", -1)
	select {
	case <-entered:
	case <-time.After(eventTimeout):
		x.c.failf(fmt.Sprintf("setData /b3 on replica %d, watched by session %#x on replica %d", writerReplica, w, watcherReplica),
			fmt.Sprintf("the NodeDataChanged event within %s", eventTimeout), "no event")
		return
	}
	var data string
	var seen bool
	req := reqGet(w, "/b3")
	ch := x.submit(watcherReplica, req, func(r *mwzookeeper.Response) {
		data = string(r.Data)
		x.eventSeen(watcherReplica, w, "/b3", &seen)(r)
	})
	var r reply
	select { // a Service that lets the read overtake the event answers now
	case r = <-ch:
	case <-time.After(holdWindow):
	}
	release()
	if r.Response == nil {
		r = x.await(watcherReplica, req, ch)
	}
	if r.Response != nil && r.Err == nil && data == "new" && !seen {
		x.c.failf(fmt.Sprintf("getData /b3 on replica %d by session %#x while its NodeDataChanged event for setData /b3 was still being sent", watcherReplica, w),
			"the event sent to the session before the reply that shows the new data", "the reply first, with data \"new\", and no event yet")
	}
}

func testCloseRemovesWatches(c *T) {
	x, w, wr := c.watchEnsemble()
	v := x.session(watcherReplica, longSession)
	x.create(writerReplica, wr, "/cw", "", pers)
	x.create(watcherReplica, w, "/cwe", "", mwzookeeper.Ephemeral)
	x.settle(watcherReplica, w)
	for _, s := range []int64{w, v} {
		x.ok(watcherReplica, withWatch(reqGet(s, "/cw")), "the node's data")
		x.ok(watcherReplica, withWatch(reqChildren(s, "/cw")), "the node's children")
	}
	x.ok(watcherReplica, withWatch(reqExists(v, "/cwe")), "the node's stat")
	x.closeSession(watcherReplica, w)
	x.setData(writerReplica, wr, "/cw", "x", -1)
	x.create(writerReplica, wr, "/cw/k", "", pers)
	want := []mwzookeeper.WatchEvent{ev(mwzookeeper.EventNodeDataChanged, "/cw"), ev(mwzookeeper.EventNodeChildrenChanged, "/cw")}
	if _, found := x.exists(watcherReplica, v, "/cwe"); !found {
		// A5.3 deleted the closed session's ephemeral: that is a change
		// like any other, and v watched it.
		want = append([]mwzookeeper.WatchEvent{ev(mwzookeeper.EventNodeDeleted, "/cwe")}, want...)
	}
	x.expectEvents(watcherReplica, v, "(a session that stayed) after exists /cwe (the closed session's ephemeral), the close, setData /cw and create /cw/k", want...)
	if evs := x.e.Host(watcherReplica).Events(w); len(evs) != 0 {
		c.failf(fmt.Sprintf("the watch events of session %#x, closed before setData /cw and create /cw/k", w),
			"none (closing a session removes its watches)", "events "+evText(evs))
	}
}

// testSetWatches: a client that lost its connection sends its watches
// again with setWatches and the last zxid it saw (the server does so on
// every new connection, and the stub's read takes it to the WatchTable).
// A watch whose node changed meanwhile fires at once; the others stay set.
func testSetWatches(c *T) {
	x, w, wr := c.watchEnsemble()
	x.create(writerReplica, wr, "/sw", "", pers)
	x.create(writerReplica, wr, "/sx", "", pers)
	x.settle(watcherReplica, w)
	// The last zxid the client saw: /sx's creation, the newest write so
	// far (a stat, not the reply's zxid, which A5.1 checks on its own).
	_, st := x.getData(watcherReplica, w, "/sx")
	seen := st.Mzxid
	x.setData(writerReplica, wr, "/sx", "meanwhile", -1)
	x.settle(watcherReplica, w)
	req := &mwzookeeper.Request{Op: mwzookeeper.OpSetWatches, Session: w, RelZxid: seen,
		DataWatches: []string{"/sw", "/sx"}, ExistWatches: []string{"/sy"}, ChildWatches: []string{"/sw"}}
	x.ok(watcherReplica, req, "success")
	after := fmt.Sprintf("after setWatches (last zxid %#x; data /sw /sx, exist /sy, child /sw) and a setData /sx after that zxid", seen)
	x.expectEvents(watcherReplica, w, after, ev(mwzookeeper.EventNodeDataChanged, "/sx"))
	x.setData(writerReplica, wr, "/sw", "x", -1)
	x.create(writerReplica, wr, "/sy", "", pers)
	x.create(writerReplica, wr, "/sw/k", "", pers)
	x.expectEvents(watcherReplica, w, after+", then a setData /sw, a create /sy and a create /sw/k",
		ev(mwzookeeper.EventNodeDataChanged, "/sx"), ev(mwzookeeper.EventNodeDataChanged, "/sw"),
		ev(mwzookeeper.EventNodeCreated, "/sy"), ev(mwzookeeper.EventNodeChildrenChanged, "/sw"))
}
