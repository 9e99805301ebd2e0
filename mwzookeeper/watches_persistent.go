package mwzookeeper

import (
	"fmt"
	"strings"
)

// This file: addWatch, checkWatches and removeWatches as Apache ZooKeeper
// 3.8.0 answers them (beyond the sheet; compared with the real server by
// server.TestPersistentWatchesAsZooKeeper). The server checks no path:
// a watch on "no path" is left, and never fires.

// AddWatch leaves addWatch's watch on path for session: a persistent or
// persistent-recursive watch, in the data and the child table both (3.8.0
// does; the recursive one never fires on children changed). Any other
// mode is ErrMarshallingError, ZooKeeper's answer to its exception.
func (t *WatchTable) AddWatch(mode WatchMode, path string, session int64) error {
	var m watchMode
	switch mode {
	case WatchPersistent:
		m = modePersistent
	case WatchPersistentRecursive:
		m = modeRecursive
	default:
		return fmt.Errorf("%w: addWatch mode %d on %q", ErrMarshallingError, mode, path)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.set(DataWatch, path, session, m)
	t.set(ChildWatch, path, session, m)
	return nil
}

// watchKinds are the tables a watcher type names, child table first as
// ZooKeeper looks; 3.8.0 knows no other type than these three (Persistent
// and PersistentRecursive came with 3.9) and answers ErrMarshallingError.
func watchKinds(typ WatcherType, path string) ([]WatchKind, error) {
	switch typ {
	case WatcherChildren:
		return []WatchKind{ChildWatch}, nil
	case WatcherData:
		return []WatchKind{DataWatch}, nil
	case WatcherAny:
		return []WatchKind{ChildWatch, DataWatch}, nil
	}
	return nil, fmt.Errorf("%w: watcher type %d for %q", ErrMarshallingError, typ, path)
}

// Remove is removeWatches: it drops session's watches of typ on path, in
// whatever mode; ErrNoWatcher if it had none there.
func (t *WatchTable) Remove(typ WatcherType, path string, session int64) error {
	kinds, err := watchKinds(typ, path)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	removed := false
	for _, k := range kinds {
		if t.drop(k, path, session) {
			removed = true
		}
	}
	if !removed {
		return fmt.Errorf("%w: %s (type: %d)", ErrNoWatcher, path, typ)
	}
	return nil
}

// Check is checkWatches: nil if a watch of typ is on path, ErrNoWatcher
// if not. As in 3.8.0 it is any session's watch, not only session's, or
// session's own recursive one; and a path the table cannot walk up (no
// slash in it) is ErrMarshallingError, 3.8.0's answer to the exception
// its path iterator throws.
func (t *WatchTable) Check(typ WatcherType, path string, session int64) error {
	kinds, err := watchKinds(typ, path)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	found := false
	for _, k := range kinds {
		ok, err := t.contains(k, path, session)
		if err != nil {
			return err
		}
		found = found || ok
	}
	if !found {
		return fmt.Errorf("%w: %s (type: %d)", ErrNoWatcher, path, typ)
	}
	return nil
}

// contains is 3.8.0's WatchManager.containsWatcher: the path iterator
// computes each parent before its level is looked at, and walks up only
// while the table has a recursive watch. t.mu must be held.
func (t *WatchTable) contains(kind WatchKind, path string, session int64) (bool, error) {
	mode := t.paths[kind][path][session]
	local := path
	for level := 0; local != ""; level++ {
		if level > 0 && t.recursive[kind] == 0 {
			break
		}
		cur := local
		switch i := strings.LastIndexByte(local, '/'); {
		case local == "/":
			local = ""
		case i < 0:
			return false, fmt.Errorf("%w: checkWatches of %q: no parent above %q", ErrMarshallingError, path, local)
		case i == 0:
			local = "/"
		default:
			local = local[:i]
		}
		if level == 0 && len(t.paths[kind][cur]) > 0 {
			return true, nil
		}
		if mode == modeRecursive {
			return true, nil
		}
	}
	return false, nil
}
