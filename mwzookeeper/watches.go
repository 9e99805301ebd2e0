package mwzookeeper

import (
	"slices"
	"sync"
)

// EventType is a watch event's kind, ZooKeeper's values.
type EventType int32

// Watch events.
const (
	EventNodeCreated         EventType = 1
	EventNodeDeleted         EventType = 2
	EventNodeDataChanged     EventType = 3
	EventNodeChildrenChanged EventType = 4
)

func (t EventType) String() string {
	switch t {
	case EventNodeCreated:
		return "NodeCreated"
	case EventNodeDeleted:
		return "NodeDeleted"
	case EventNodeDataChanged:
		return "NodeDataChanged"
	case EventNodeChildrenChanged:
		return "NodeChildrenChanged"
	}
	return "Event(" + itoa(int64(t)) + ")"
}

// WatchEvent is what a triggered watch sends to its session.
type WatchEvent struct {
	Type EventType
	Path string
	Zxid int64 // the write that triggered it
}

// WatchKind says what a watch waits for.
type WatchKind int

// A data watch is left by getData and exists (it also fires on creation,
// so exists can wait for a node to appear); a child watch by getChildren.
const (
	DataWatch WatchKind = iota
	ChildWatch
)

// WatchTable holds the watches of the sessions connected to one server.
// Watches are one-shot: a triggered watch is removed. A Service registers
// watches while a read executes and triggers them while it applies a
// delivered write; Fire hands the events to the Host. Safe for concurrent
// use.
type WatchTable struct {
	mu    sync.Mutex
	paths [2]map[string]map[int64]struct{} // kind -> path -> sessions
	count int
}

// NewWatchTable returns an empty table.
func NewWatchTable() *WatchTable {
	return &WatchTable{paths: [2]map[string]map[int64]struct{}{{}, {}}}
}

// Add leaves a watch of kind on path for session; adding the same watch
// twice leaves one.
func (t *WatchTable) Add(kind WatchKind, path string, session int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := t.paths[kind][path]
	if m == nil {
		m = map[int64]struct{}{}
		t.paths[kind][path] = m
	}
	if _, ok := m[session]; !ok {
		m[session] = struct{}{}
		t.count++
	}
}

// Trigger removes and returns, sorted, the sessions whose watches an event
// of type typ on path fires: data watches for created, changed and
// deleted; child watches for children changed and deleted. A session
// watching both ways is named once.
func (t *WatchTable) Trigger(path string, typ EventType) []int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	var kinds []WatchKind
	switch typ {
	case EventNodeCreated, EventNodeDataChanged:
		kinds = []WatchKind{DataWatch}
	case EventNodeChildrenChanged:
		kinds = []WatchKind{ChildWatch}
	case EventNodeDeleted:
		kinds = []WatchKind{DataWatch, ChildWatch}
	}
	var out []int64
	for _, k := range kinds {
		for s := range t.paths[k][path] {
			out = append(out, s)
			t.count--
		}
		delete(t.paths[k], path)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Fire triggers the watches an event fires and sends each session the
// event through host.
func (t *WatchTable) Fire(host Host, ev WatchEvent) {
	for _, s := range t.Trigger(ev.Path, ev.Type) {
		host.Notify(s, ev)
	}
}

// RemoveSession drops every watch of session (closed or expired).
func (t *WatchTable) RemoveSession(session int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, byPath := range t.paths {
		for p, m := range byPath {
			if _, ok := m[session]; ok {
				delete(m, session)
				t.count--
				if len(m) == 0 {
					delete(byPath, p)
				}
			}
		}
	}
}

// Len is the number of watches (a session's watch on a path counted once
// per kind).
func (t *WatchTable) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.count
}

// Watched returns, sorted, the paths session watches with kind (for the
// wchs four-letter word and for tests).
func (t *WatchTable) Watched(kind WatchKind, session int64) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for p, m := range t.paths[kind] {
		if _, ok := m[session]; ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// Lookup is how SetWatches sees the tree: the node's stat, or false when
// it does not exist.
type Lookup func(path string) (MWStat, bool)

// SetWatches re-registers a reconnecting session's watches and fires at
// once, with zxid now, those that changed after req.RelZxid: a data watch
// on a node that is gone (NodeDeleted) or changed (NodeDataChanged), an
// exist watch on a node that appeared (NodeCreated), a child watch on a
// node that is gone or whose children changed. Call it from the goroutine
// that applies writes, so no write slips between the check and the
// registration.
func (t *WatchTable) SetWatches(host Host, req *Request, lookup Lookup, now int64) {
	s, rel := req.Session, req.RelZxid
	for _, p := range req.DataWatches {
		st, ok := lookup(p)
		switch {
		case !ok:
			host.Notify(s, WatchEvent{Type: EventNodeDeleted, Path: p, Zxid: now})
		case st.Mzxid > rel:
			host.Notify(s, WatchEvent{Type: EventNodeDataChanged, Path: p, Zxid: now})
		default:
			t.Add(DataWatch, p, s)
		}
	}
	for _, p := range req.ExistWatches {
		if _, ok := lookup(p); ok {
			host.Notify(s, WatchEvent{Type: EventNodeCreated, Path: p, Zxid: now})
		} else {
			t.Add(DataWatch, p, s)
		}
	}
	for _, p := range req.ChildWatches {
		st, ok := lookup(p)
		switch {
		case !ok:
			host.Notify(s, WatchEvent{Type: EventNodeDeleted, Path: p, Zxid: now})
		case st.Pzxid > rel:
			host.Notify(s, WatchEvent{Type: EventNodeChildrenChanged, Path: p, Zxid: now})
		default:
			t.Add(ChildWatch, p, s)
		}
	}
}

// BySession lists, per session, the paths it watches with any kind,
// sorted and each once (for the wchc and wchp four-letter words).
func (t *WatchTable) BySession() map[int64][]string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[int64][]string{}
	for _, byPath := range t.paths {
		for p, m := range byPath {
			for sid := range m {
				out[sid] = append(out[sid], p)
			}
		}
	}
	for sid := range out {
		slices.Sort(out[sid])
		out[sid] = slices.Compact(out[sid])
	}
	return out
}
