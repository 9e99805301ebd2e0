package mwzookeeper

import (
	"slices"
	"strings"
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
	// ACL is the ACL of the node the event is about (the parent's for
	// NodeChildrenChanged), when it fired: the server then sends the
	// event only to a session that may READ that node, as ZooKeeper does
	// since its fix of CVE-2024-23944 (a recursive watch on an open node
	// told everyone the names of nodes they may not read). nil: every
	// watcher gets it (a Service without ACLs).
	ACL []ACL
}

// WatchKind says what a watch waits for.
type WatchKind int

// A data watch is left by getData and exists (it also fires on creation,
// so exists can wait for a node to appear); a child watch by getChildren.
const (
	DataWatch WatchKind = iota
	ChildWatch
)

// WatchTable holds the watches of the sessions connected to one server,
// as ZooKeeper 3.8.0's two watch managers do: a data table (getData,
// exists, addWatch) and a child table (getChildren, addWatch). A session
// has at most one watch per table and path, in one mode: one-shot (removed
// when it fires), persistent, or persistent-recursive; adding a watch
// where the session has one replaces its mode, so a one-shot getData watch
// turns a persistent data watch on the same path one-shot (3.8.0 does so;
// 3.9 keeps both). A Service registers watches while a read executes and
// triggers them while it applies a delivered write; Fire hands the events
// to the Host. Safe for concurrent use.
type WatchTable struct {
	mu        sync.Mutex
	paths     [2]map[string]map[int64]watchMode // kind -> path -> session -> mode
	recursive [2]int                            // recursive watches per kind: whether triggers walk up
	count     int
}

// watchMode is one watch's mode: ZooKeeper's WatcherMode.
type watchMode uint8

const (
	modeOneShot watchMode = iota
	modePersistent
	modeRecursive
)

// NewWatchTable returns an empty table.
func NewWatchTable() *WatchTable {
	return &WatchTable{paths: [2]map[string]map[int64]watchMode{{}, {}}}
}

// Add leaves a one-shot watch of kind on path for session; adding the same
// watch twice leaves one. A persistent watch the session has there becomes
// one-shot, as in ZooKeeper 3.8.0.
func (t *WatchTable) Add(kind WatchKind, path string, session int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.set(kind, path, session, modeOneShot)
}

// set leaves session's watch of kind on path in mode. t.mu must be held.
func (t *WatchTable) set(kind WatchKind, path string, session int64, mode watchMode) {
	m := t.paths[kind][path]
	if m == nil {
		m = map[int64]watchMode{}
		t.paths[kind][path] = m
	}
	old, had := m[session]
	switch {
	case !had:
		t.count++
	case old == modeRecursive:
		t.recursive[kind]--
	}
	if mode == modeRecursive {
		t.recursive[kind]++
	}
	m[session] = mode
}

// drop removes session's watch of kind on path; false if it has none.
// t.mu must be held.
func (t *WatchTable) drop(kind WatchKind, path string, session int64) bool {
	m := t.paths[kind][path]
	mode, ok := m[session]
	if !ok {
		return false
	}
	delete(m, session)
	if len(m) == 0 {
		delete(t.paths[kind], path)
	}
	if mode == modeRecursive {
		t.recursive[kind]--
	}
	t.count--
	return true
}

// Trigger returns, sorted, the sessions an event of type typ on path
// notifies, and removes the one-shot watches it fires: the data table's
// for created, changed and deleted; the child table's for children
// changed and deleted. A recursive watch on an ancestor of path fires too,
// and stays, for every type but children changed. A session watching
// several ways is named once.
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
		out = t.trigger(k, path, typ, out)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// trigger appends to out the sessions whose watches of kind an event on
// path fires, walking up to "/" while the table has recursive watches.
// t.mu must be held.
func (t *WatchTable) trigger(kind WatchKind, path string, typ EventType, out []int64) []int64 {
	local, ok := path, true
	for level := 0; ok; level++ {
		for s, mode := range t.paths[kind][local] {
			switch {
			case mode == modeRecursive:
				if typ != EventNodeChildrenChanged {
					out = append(out, s)
				}
			case level == 0:
				out = append(out, s)
				if mode == modeOneShot {
					t.drop(kind, local, s)
				}
			}
		}
		if t.recursive[kind] == 0 {
			break
		}
		local, ok = parentOf(local)
	}
	return out
}

// parentOf is the path above p, and false above "/" or for a path without
// a slash.
func parentOf(p string) (string, bool) {
	if p == "/" {
		return "", false
	}
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", false
	}
	if i == 0 {
		return "/", true
	}
	return p[:i], true
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
	for k, byPath := range t.paths {
		for p, m := range byPath {
			if _, ok := m[session]; ok {
				t.drop(WatchKind(k), p, session)
			}
		}
	}
}

// Len is the number of watches (a session's watch on a path counted once
// per kind: a persistent watch, of either mode, counts twice).
func (t *WatchTable) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.count
}

// Watched returns, sorted, the paths session watches with kind, in any
// mode (for the wchs four-letter word and for tests).
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
// node that is gone or whose children changed. setWatches2's persistent
// and recursive watches are registered without an event, in both tables as
// addWatch does. Call it from the goroutine
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
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, p := range req.PersistentWatches {
		t.set(ChildWatch, p, s, modePersistent)
		t.set(DataWatch, p, s, modePersistent)
	}
	for _, p := range req.RecursiveWatches {
		t.set(ChildWatch, p, s, modeRecursive)
		t.set(DataWatch, p, s, modeRecursive)
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
