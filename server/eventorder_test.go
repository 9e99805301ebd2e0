package server

import (
	"encoding/binary"
	"fmt"
	"net"
	"testing"
	"time"

	"zablab/internal/realzk"
	"zablab/internal/wait"
	mw "zablab/mwzookeeper"
)

// newDataBeforeEvent: a raw client leaves a data watch on path with
// getData(path, watch), then pipelines setData(other) and another
// getData(path, watch) in one write, round after round, while two other
// clients keep changing path. ZooKeeper's promise: a client that watches a
// znode sees the watch event before it sees the znode's new data. So once
// a getData reply with mzxid M armed the watch, no later getData reply may
// show an mzxid above M before a NodeDataChanged event for path arrived.
// It returns what went wrong ("" if nothing) and the rounds run.
func newDataBeforeEvent(t *testing.T, addr, path, other string, d time.Duration) (string, int) {
	hammer(t, addr, path)
	ta, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	w := &watcher{r: dialRaw(t, ta), path: path, gets: map[int32]bool{}}
	w.r.connect(0, make([]byte, 16), 10000)
	cr := jstr(be32(be32(nil, 1), int32(mw.OpCreate)), other)
	cr = be32(cr, -1)                                         // null data
	cr = jstr(jstr(be32(be32(cr, 1), 31), "world"), "anyone") // world:anyone, all
	w.r.frame(be32(cr, 0))
	if msg := w.readUntil(1); msg != "" {
		return msg, 0
	}
	deadline := time.Now().Add(d)
	rounds := 0
	for xid := int32(1); time.Now().Before(deadline); {
		rounds++
		w.r.nc.SetDeadline(time.Now().Add(20 * time.Second))
		xid++
		if msg := w.send(xid, w.getData(xid)); msg != "" {
			return msg, rounds
		}
		xid += 2
		if msg := w.send(xid, append(w.setData(xid-1, other), w.getData(xid)...)); msg != "" {
			return msg, rounds
		}
	}
	return "", rounds
}

// watcher is newDataBeforeEvent's client: it tracks whether its data
// watch on path is armed, and by which mzxid.
type watcher struct {
	r      *raw
	path   string
	gets   map[int32]bool // xids of getData requests not yet answered
	armed  bool
	armedM int64
}

// getData returns the frame of getData(path, watch).
func (w *watcher) getData(xid int32) []byte {
	w.gets[xid] = true
	b := append(jstr(be32(be32(nil, xid), int32(mw.OpGetData)), w.path), 1)
	return append(be32(nil, int32(len(b))), b...)
}

// setData returns the frame of setData(path, "v").
func (w *watcher) setData(xid int32, path string) []byte {
	b := jstr(be32(be32(nil, xid), int32(mw.OpSetData)), path)
	b = be32(append(be32(b, 1), 'v'), -1)
	return append(be32(nil, int32(len(b))), b...)
}

// send writes frames and reads until the reply to want.
func (w *watcher) send(want int32, frames []byte) string {
	if _, err := w.r.nc.Write(frames); err != nil {
		w.r.t.Fatal(err)
	}
	return w.readUntil(want)
}

// readUntil reads frames until the reply to want, checking every getData
// reply against the watch; it returns what went wrong, or "".
func (w *watcher) readUntil(want int32) string {
	for {
		body := w.r.readFrame()
		x := int32(binary.BigEndian.Uint32(body))
		if x == -1 {
			typ := int32(binary.BigEndian.Uint32(body[16:]))
			n := int32(binary.BigEndian.Uint32(body[24:]))
			if string(body[28:28+n]) == w.path && typ == int32(mw.EventNodeDataChanged) {
				w.armed = false
			}
			continue
		}
		if w.gets[x] {
			if msg := w.checkGet(x, body); msg != "" {
				return msg
			}
		}
		if x == want {
			return ""
		}
	}
}

// checkGet checks the getData reply body with xid x: it arms the watch,
// or, with the watch armed, must not show newer data than armed it.
func (w *watcher) checkGet(x int32, body []byte) string {
	delete(w.gets, x)
	if binary.BigEndian.Uint32(body[12:]) != 0 {
		return fmt.Sprintf("getData xid %d failed", x)
	}
	off := 20
	if dl := int32(binary.BigEndian.Uint32(body[16:])); dl > 0 {
		off += int(dl)
	}
	mz := int64(binary.BigEndian.Uint64(body[off+8:]))
	switch {
	case !w.armed:
		w.armed, w.armedM = true, mz
	case mz > w.armedM:
		nx := int32(binary.BigEndian.Uint32(w.r.readFrame()))
		return fmt.Sprintf("(the frame after it has xid %d) getData xid %d shows %s at mzxid 0x%x, newer than 0x%x "+
			"that armed the client's watch, but the NodeDataChanged event for that watch has not arrived yet",
			nx, x, w.path, mz, w.armedM)
	}
	return ""
}

// TestNewDataBeforeWatchEvent: a watch event must not wait behind a read
// that runs after the event's write (the reference queues a read behind
// the session's pending write), else the client reads the new data before
// it is told of the change. It failed within 1 or 2 rounds while every
// event waited behind the last pending read of its path (19c36ad).
func TestNewDataBeforeWatchEvent(t *testing.T) {
	s := startA5(t, "")
	if msg, n := newDataBeforeEvent(t, s.Addr().String(), "/x", "/other", 3*time.Second); msg != "" {
		t.Fatalf("round %d: %s", n, msg)
	} else {
		t.Logf("%d rounds in order", n)
	}
}

// TestNewDataBeforeWatchEventZK is the control against Apache ZooKeeper
// 3.8 (skipped without java or its jars).
func TestNewDataBeforeWatchEventZK(t *testing.T) {
	addr := realzk.StartT(t)
	if msg, n := newDataBeforeEvent(t, addr, "/x-new", "/other-new", 3*time.Second); msg != "" {
		t.Fatalf("ZooKeeper, round %d: %s", n, msg)
	} else {
		t.Logf("ZooKeeper: %d rounds in order", n)
	}
}

// TestEventPrecedesAReadRunAfterItsWrite: with a Service that executes a
// read only later (queued behind something), an event that arrives while
// that read waits goes ahead of its reply, which shows the new data; the
// watch it fires was set by an earlier read.
func TestEventPrecedesAReadRunAfterItsWrite(t *testing.T) {
	f := newFake()
	s := startServer(t, f, testProps)
	r := dialRaw(t, s.Addr())
	r.connect(0, make([]byte, 16), 1000)
	r.request(1, mw.OpGetData, "/", true)
	if xid, _ := r.reply(); xid != 1 {
		t.Fatalf("first reply has xid %d, want 1", xid)
	}
	f.setLate(true)
	r.request(2, mw.OpGetData, "/", true)
	wait.For(t, "a held request", 10*time.Second, func() bool { return f.heldCount() == 1 })
	f.setDirect("/", []byte("new")) // fires the watch of request 1
	f.release()
	for i, want := range []int32{-1, 2} {
		if xid, _ := r.reply(); xid != want {
			t.Fatalf("frame %d has xid %d, want %d (the event, then the read that saw the new data)", i, xid, want)
		}
	}
}

// TestChildEventSkipsAGetData: a children-changed event cannot answer the
// data watch of a pending getData of the same path, so it does not wait
// for that reply.
func TestChildEventSkipsAGetData(t *testing.T) {
	f := newFake()
	s := startServer(t, f, testProps)
	r := dialRaw(t, s.Addr())
	_, id, _ := r.connect(0, make([]byte, 16), 1000)
	f.setHold(true)
	r.request(1, mw.OpGetData, "/", true)
	wait.For(t, "a held request", 10*time.Second, func() bool { return f.heldCount() == 1 })
	s.Host().Notify(id, mw.WatchEvent{Type: mw.EventNodeChildrenChanged, Path: "/", Zxid: 7})
	f.release()
	for i, want := range []int32{-1, 1} {
		if xid, _ := r.reply(); xid != want {
			t.Fatalf("frame %d has xid %d, want %d (the child event, then the getData)", i, xid, want)
		}
	}
}

// TestHeldEventsKeepTheirOrder: an event that could go out at once still
// follows an earlier event held for a read's reply, so a client sees
// events in zxid order.
func TestHeldEventsKeepTheirOrder(t *testing.T) {
	f := newFake()
	s := startServer(t, f, testProps)
	r := dialRaw(t, s.Addr())
	_, id, _ := r.connect(0, make([]byte, 16), 1000)
	f.setHold(true)
	r.request(1, mw.OpGetData, "/", true)
	wait.For(t, "a held request", 10*time.Second, func() bool { return f.heldCount() == 1 })
	s.Host().Notify(id, mw.WatchEvent{Type: mw.EventNodeDataChanged, Path: "/", Zxid: 7})
	s.Host().Notify(id, mw.WatchEvent{Type: mw.EventNodeCreated, Path: "/other", Zxid: 8})
	f.release()
	for i, want := range []int64{0, 7, 8} { // the reply (zxid 0 from the fake), then the events
		body := r.readFrame()
		if zxid := int64(binary.BigEndian.Uint64(body[4:])); zxid != want {
			t.Fatalf("frame %d (xid %d) has zxid %d, want %d", i, int32(binary.BigEndian.Uint32(body)), zxid, want)
		}
	}
}
