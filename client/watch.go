package client

import (
	"fmt"
	"sort"

	"zablab/mwzookeeper"
)

// Event is what a watch delivers, once. Either Type and Path say what
// happened to the watched node, or Err says why the watch ended without
// firing (Type is then 0): mwzookeeper.ErrSessionExpired when the session
// died, ErrClosed when the handle was closed. A mere connection loss does
// not end a watch: the handle re-registers it on the next server.
type Event struct {
	Type mwzookeeper.EventType
	Path string
	Err  error
	// Seq numbers the notifications the handle delivered to watches, 1,
	// 2, … in the order it delivered them (the server's order): a caller
	// that waits on several watches can print their events in it. The
	// events of one notification share it (a data and a child watch of a
	// deleted node, a persistent watch beside them), so a caller that
	// prints each notification once, as zkCli does, can tell. It is 0 in
	// a persistent watch's ...WatchRemoved and end events.
	Seq uint64
}

// String prints the event as zkCli does ("type:NodeDeleted path:/a").
func (e Event) String() string {
	if e.Err != nil {
		return fmt.Sprintf("watch on %s ended: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("type:%s path:%s", e.Type, e.Path)
}

// GetDataW is GetData that also leaves a data watch: the channel delivers
// one Event when the node's data changes or the node is deleted. No watch
// is left when the call fails.
func (z *MWZooKeeper) GetDataW(path string, stat *mwzookeeper.MWStat) ([]byte, <-chan Event, error) {
	z.async.wait()
	if err := z.prepare("getData", path, false, nil); err != nil {
		return nil, nil, err
	}
	w := z.watches.add(path, kindData)
	data, st, _, err := z.conn.GetW(path)
	if err != nil {
		z.watches.settle(path, w, 0)
		return nil, nil, z.wrap("getData", path, err)
	}
	if stat != nil {
		*stat = statOf(st)
	}
	return data, w.ch, nil
}

// ExistsW is Exists that also leaves a watch, whether the node exists or
// not: the channel delivers one Event when it is created, changed or
// deleted.
func (z *MWZooKeeper) ExistsW(path string) (bool, mwzookeeper.MWStat, <-chan Event, error) {
	z.async.wait()
	if err := z.prepare("exists", path, false, nil); err != nil {
		return false, mwzookeeper.MWStat{}, nil, err
	}
	w := z.watches.add(path, kindData|kindExist)
	ok, st, _, err := z.conn.ExistsW(path)
	if err != nil {
		z.watches.settle(path, w, 0)
		return false, mwzookeeper.MWStat{}, nil, z.wrap("exists", path, err)
	}
	if !ok {
		z.watches.settle(path, w, kindExist)
		return false, mwzookeeper.MWStat{}, w.ch, nil
	}
	z.watches.settle(path, w, kindData)
	return true, statOf(st), w.ch, nil
}

// GetChildrenW is GetChildrenStat that also leaves a child watch: the
// channel delivers one Event when a child is created or deleted
// (NodeChildrenChanged) or the node itself is deleted.
func (z *MWZooKeeper) GetChildrenW(path string) ([]string, mwzookeeper.MWStat, <-chan Event, error) {
	z.async.wait()
	if err := z.prepare("getChildren", path, false, nil); err != nil {
		return nil, mwzookeeper.MWStat{}, nil, err
	}
	w := z.watches.add(path, kindChild)
	children, st, _, err := z.conn.ChildrenW(path)
	if err != nil {
		z.watches.settle(path, w, 0)
		return nil, mwzookeeper.MWStat{}, nil, z.wrap("getChildren", path, err)
	}
	sort.Strings(children)
	return children, statOf(st), w.ch, nil
}
