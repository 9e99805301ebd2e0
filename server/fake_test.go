package server

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	mw "zablab/mwzookeeper"
	"zablab/properties"
)

// fake is a tiny map-backed Service for the server's tests: no Zab, no
// ephemerals, just enough tree and sessions to drive a real client. With
// hold set it keeps every reply (except session requests and pings) until
// release, so a test can answer out of order.
type fake struct {
	mu       sync.Mutex
	host     mw.Host
	nodes    map[string]fakeNode
	sessions map[int64][]byte
	next     int64
	zxid     int64
	watches  *mw.WatchTable
	hold     bool
	late     bool // with hold: execute a request only at release, not at Submit
	held     []func()
	pings    int
	closes   int
	noServe  bool // Start does not call Serving(true)
	stopped  bool
}

type fakeNode struct {
	data    []byte
	version int32
	mzxid   int64
}

func newFake() *fake {
	return &fake{nodes: map[string]fakeNode{"/": {}}, sessions: map[int64][]byte{}, watches: mw.NewWatchTable()}
}

func (f *fake) Start(_ *properties.Properties, h mw.Host) error {
	f.mu.Lock()
	f.host = h
	serve := !f.noServe
	f.mu.Unlock()
	if serve {
		h.Serving(true)
	}
	return nil
}

func (f *fake) Stop() error {
	f.mu.Lock()
	f.stopped = true
	held := f.held
	f.held = nil
	f.mu.Unlock()
	for _, r := range held {
		r()
	}
	return nil
}

func (f *fake) Stats() mw.Stats {
	f.mu.Lock()
	defer f.mu.Unlock()
	return mw.Stats{Role: "standalone", Zxid: f.zxid, Nodes: len(f.nodes), Watches: f.watches.Len(), Sessions: len(f.sessions)}
}

// setHold switches holding replies on or off.
func (f *fake) setHold(on bool) {
	f.mu.Lock()
	f.hold = on
	f.mu.Unlock()
}

// setLate holds requests unexecuted until release (with hold on).
func (f *fake) setLate(on bool) {
	f.mu.Lock()
	f.hold, f.late = on, on
	f.mu.Unlock()
}

// release answers the held replies, newest first.
func (f *fake) release() int {
	f.mu.Lock()
	held := f.held
	f.held = nil
	f.mu.Unlock()
	for i := len(held) - 1; i >= 0; i-- {
		held[i]()
	}
	return len(held)
}

func (f *fake) heldCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.held)
}

// setDirect changes a node behind every client's back.
func (f *fake) setDirect(path string, data []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.nodes[path]
	f.write(path, fakeNode{data: data, version: n.version + 1}, mw.EventNodeDataChanged)
}

// expire drops a session as if it had timed out.
func (f *fake) expire(id int64) {
	f.mu.Lock()
	delete(f.sessions, id)
	f.watches.RemoveSession(id)
	h := f.host
	f.mu.Unlock()
	h.SessionClosed(id, true)
}

func (f *fake) Submit(req *mw.Request, reply func(*mw.Response)) {
	f.mu.Lock()
	if f.late && f.hold && req.Op != mw.OpPing {
		// As a Service that queues the request behind an earlier one.
		f.held = append(f.held, func() {
			f.mu.Lock()
			resp := f.apply(req)
			f.mu.Unlock()
			reply(resp)
		})
		f.mu.Unlock()
		return
	}
	resp := f.apply(req)
	if f.hold && !f.stopped && req.Op != mw.OpPing && req.Op != mw.OpCreateSession && req.Op != mw.OpReconnect {
		f.held = append(f.held, func() { reply(resp) })
		f.mu.Unlock()
		return
	}
	f.mu.Unlock()
	reply(resp)
}

// apply runs req under f.mu.
func (f *fake) apply(req *mw.Request) *mw.Response {
	r := &mw.Response{Zxid: f.zxid}
	switch req.Op {
	case mw.OpCreateSession:
		f.next++
		r.Session, r.Password, r.Timeout = f.next, bytes.Repeat([]byte{byte(f.next)}, 16), req.Timeout
		f.sessions[f.next] = r.Password
	case mw.OpReconnect:
		pw, ok := f.sessions[req.Session]
		if !ok || !bytes.Equal(pw, req.Password) {
			r.Err = mw.ErrSessionExpired
			break
		}
		if req.LastZxid > f.zxid {
			r.Err = fmt.Errorf("%w: client has seen zxid 0x%x, this replica 0x%x", mw.ErrBadArguments, req.LastZxid, f.zxid)
			break
		}
		r.Session, r.Password, r.Timeout = req.Session, pw, req.Timeout
	case mw.OpPing:
		f.pings++
	case mw.OpCloseSession:
		f.closes++
		delete(f.sessions, req.Session)
		f.watches.RemoveSession(req.Session)
		f.host.SessionClosed(req.Session, false)
	case mw.OpSetWatches:
		f.watches.SetWatches(f.host, req, f.lookup, f.zxid)
	default:
		f.tree(req, r)
	}
	return r
}

func (f *fake) lookup(path string) (mw.MWStat, bool) {
	n, ok := f.nodes[path]
	return mw.MWStat{Czxid: n.mzxid, Mzxid: n.mzxid, Pzxid: n.mzxid, Version: n.version, DataLength: int32(len(n.data))}, ok
}

func (f *fake) tree(req *mw.Request, r *mw.Response) {
	n, exists := f.nodes[req.Path]
	if req.Path == "/lost" {
		r.Err = mw.ErrConnectionLoss // as a Service whose replica lost its leader
		return
	}
	switch req.Op {
	case mw.OpCreate, mw.OpCreate2:
		if exists {
			r.Err = mw.ErrNodeExists
			return
		}
		f.write(req.Path, fakeNode{data: bytes.Clone(req.Data)}, mw.EventNodeCreated)
		f.watches.Fire(f.host, mw.WatchEvent{Type: mw.EventNodeChildrenChanged, Path: mw.Parent(req.Path), Zxid: f.zxid})
		r.Path, r.Zxid = req.Path, f.zxid
	case mw.OpSetData:
		if !exists {
			r.Err = mw.ErrNoNode
			return
		}
		f.write(req.Path, fakeNode{data: bytes.Clone(req.Data), version: n.version + 1}, mw.EventNodeDataChanged)
		r.Stat, _ = f.lookup(req.Path)
		r.Zxid = f.zxid
	case mw.OpDelete:
		if !exists {
			r.Err = mw.ErrNoNode
			return
		}
		delete(f.nodes, req.Path)
		f.zxid++
		f.watches.Fire(f.host, mw.WatchEvent{Type: mw.EventNodeDeleted, Path: req.Path, Zxid: f.zxid})
		r.Zxid = f.zxid
	case mw.OpGetData, mw.OpExists:
		if req.Watch {
			f.watches.Add(mw.DataWatch, req.Path, req.Session)
		}
		if !exists {
			r.Err = mw.ErrNoNode
			return
		}
		r.Data, r.Stat = n.data, mw.MWStat{Version: n.version, DataLength: int32(len(n.data))}
	case mw.OpGetChildren, mw.OpGetChildren2:
		if req.Watch {
			f.watches.Add(mw.ChildWatch, req.Path, req.Session)
		}
		r.Children = f.children(req.Path)
	case mw.OpSync: // no path in the reply: the server echoes it
	default:
		r.Err = mw.ErrUnimplemented
	}
}

func (f *fake) write(path string, n fakeNode, ev mw.EventType) {
	f.zxid++
	n.mzxid = f.zxid
	f.nodes[path] = n
	f.watches.Fire(f.host, mw.WatchEvent{Type: ev, Path: path, Zxid: f.zxid})
}

func (f *fake) children(path string) []string {
	var out []string
	for p := range f.nodes {
		if p != "/" && mw.Parent(p) == path && !strings.Contains(p[len(path):], "\x00") {
			out = append(out, mw.Base(p))
		}
	}
	slices.Sort(out)
	return out
}
