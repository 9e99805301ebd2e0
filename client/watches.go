package client

import (
	"sync"

	"github.com/go-zookeeper/zk"

	"zablab/mwzookeeper"
)

// watchKind says which events a client-side watch waits for, with go-zk's
// (and the Java client's) rules: a data watch (getData, or exists on a
// node that exists) fires on change and delete; an exist watch (exists on
// a missing node) on create; a child watch on children changed and delete.
type watchKind uint8

const (
	kindData watchKind = 1 << iota
	kindExist
	kindChild
)

// kindsFor returns the kinds of watch an event fires.
func kindsFor(t zk.EventType) watchKind {
	switch t {
	case zk.EventNodeCreated:
		return kindExist
	case zk.EventNodeDataChanged:
		return kindExist | kindData
	case zk.EventNodeChildrenChanged:
		return kindChild
	case zk.EventNodeDeleted:
		return kindExist | kindData | kindChild
	}
	return 0
}

// watch is one watch handed to the caller.
type watch struct {
	kinds watchKind // may be two kinds until the reply says which (exists)
	ch    chan Event
}

// watches delivers watch events on go-zk's receive goroutine, through
// its event callback, before go-zk hands over any later reply: so a
// caller sees the event before the reply of any later call (a relay
// goroutine would lose that order). A watch is registered before its
// request is sent, so no event can slip between the reply and the
// registration; an event of an older watch on the same path that arrives
// meanwhile fires it a little early, which tells the caller of a real
// change all the same.
type watches struct {
	mu     sync.Mutex
	byPath map[string][]*watch
	seq    uint64 // the last Event.Seq handed out
}

func newWatches() *watches { return &watches{byPath: map[string][]*watch{}} }

func (ws *watches) add(path string, kinds watchKind) *watch {
	w := &watch{kinds: kinds, ch: make(chan Event, 1)}
	ws.mu.Lock()
	ws.byPath[path] = append(ws.byPath[path], w)
	ws.mu.Unlock()
	return w
}

// settle narrows a watch to the kind the reply decided, or drops it when
// the call failed. It returns false if the watch is gone (fired or
// dropped).
func (ws *watches) settle(path string, w *watch, kinds watchKind) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	list := ws.byPath[path]
	for i, x := range list {
		if x != w {
			continue
		}
		if kinds == 0 {
			ws.byPath[path] = append(list[:i:i], list[i+1:]...)
			if len(ws.byPath[path]) == 0 {
				delete(ws.byPath, path)
			}
			return false
		}
		w.kinds = kinds
		return true
	}
	return false
}

// fire delivers ev to the watches it triggers and forgets them. They
// share one Seq, returned: it is one notification (a data and a child
// watch of a deleted node), which zkCli's one watcher prints once.
func (ws *watches) fire(path string, kinds watchKind, ev Event) uint64 {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.seq++
	ev.Seq = ws.seq
	var keep []*watch
	for _, w := range ws.byPath[path] {
		if w.kinds&kinds == 0 {
			keep = append(keep, w)
			continue
		}
		w.ch <- ev // buffered 1, sent to once
		close(w.ch)
	}
	if len(keep) == 0 {
		delete(ws.byPath, path)
	} else {
		ws.byPath[path] = keep
	}
	return ev.Seq
}

// endAll ends every watch with err (Close, expiry).
func (ws *watches) endAll(err func(path string) error) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for path, list := range ws.byPath {
		for _, w := range list {
			ws.seq++
			w.ch <- Event{Path: path, Err: err(path), Seq: ws.seq}
			close(w.ch)
		}
	}
	ws.byPath = map[string][]*watch{}
}

// onWatchEvent is the event callback's share for node events.
func (z *MWZooKeeper) onWatchEvent(ev zk.Event) {
	switch {
	case ev.Type == zk.EventNotWatching:
		z.watches.fire(ev.Path, kindData|kindExist|kindChild,
			Event{Path: ev.Path, Err: z.wrap("watch", ev.Path, ev.Err)})
	case kindsFor(ev.Type) != 0:
		seq := z.watches.fire(ev.Path, kindsFor(ev.Type),
			Event{Type: mwzookeeper.EventType(ev.Type), Path: ev.Path})
		z.persistent.fire(ev, seq)
	}
}
