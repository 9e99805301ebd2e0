package mwzookeeper

import (
	"errors"
	"slices"
	"testing"
)

// mustAddWatch leaves addWatch's watch or fails t.
func mustAddWatch(t *testing.T, w *WatchTable, mode WatchMode, path string, s int64) {
	t.Helper()
	if err := w.AddWatch(mode, path, s); err != nil {
		t.Fatalf("AddWatch(%d, %q, %d): %v", mode, path, s, err)
	}
}

func TestPersistentWatchStaysAndSeesItsNode(t *testing.T) {
	w := NewWatchTable()
	mustAddWatch(t, w, WatchPersistent, "/p", 1)
	if w.Len() != 2 {
		t.Fatalf("Len = %d, want 2 (a data and a child watch)", w.Len())
	}
	for i := 0; i < 2; i++ {
		for _, typ := range []EventType{EventNodeCreated, EventNodeDataChanged, EventNodeChildrenChanged, EventNodeDeleted} {
			if got := w.Trigger("/p", typ); !slices.Equal(got, []int64{1}) {
				t.Errorf("round %d: %s on /p fired %v, want [1]", i, typ, got)
			}
		}
	}
	for _, typ := range []EventType{EventNodeCreated, EventNodeDataChanged, EventNodeDeleted} {
		if got := w.Trigger("/p/c", typ); len(got) != 0 {
			t.Errorf("%s on /p/c fired %v: a persistent watch sees only its node", typ, got)
		}
	}
	if w.Len() != 2 {
		t.Fatalf("Len after firing = %d, want 2", w.Len())
	}
}

func TestRecursiveWatchSeesDescendantsButNoChildrenChanged(t *testing.T) {
	w := NewWatchTable()
	mustAddWatch(t, w, WatchPersistentRecursive, "/r", 1)
	w.Add(DataWatch, "/r/a/b", 1) // one-shot below: still one event
	w.Add(DataWatch, "/r/a/b", 2)
	cases := []struct {
		path string
		typ  EventType
		want []int64
	}{
		{"/r/a/b", EventNodeDataChanged, []int64{1, 2}},
		{"/r/a/b", EventNodeDataChanged, []int64{1}},
		{"/r", EventNodeCreated, []int64{1}},
		{"/r/a", EventNodeDeleted, []int64{1}},
		{"/r", EventNodeChildrenChanged, nil},
		{"/r/a", EventNodeChildrenChanged, nil},
		{"/rx", EventNodeCreated, nil},
		{"/", EventNodeDataChanged, nil},
	}
	for _, c := range cases {
		if got := w.Trigger(c.path, c.typ); !slices.Equal(got, c.want) {
			t.Errorf("%s on %s fired %v, want %v", c.typ, c.path, got, c.want)
		}
	}
	mustAddWatch(t, w, WatchPersistentRecursive, "/", 3)
	if got := w.Trigger("/x/y", EventNodeCreated); !slices.Equal(got, []int64{3}) {
		t.Errorf("a recursive watch on / saw %v for /x/y", got)
	}
}

// TestOneShotWatchReplacesPersistentMode: as in ZooKeeper 3.8.0, a session
// has one mode per table and path; getData's one-shot watch on a path
// with a persistent watch makes the data watch one-shot.
func TestOneShotWatchReplacesPersistentMode(t *testing.T) {
	w := NewWatchTable()
	mustAddWatch(t, w, WatchPersistent, "/p", 1)
	w.Add(DataWatch, "/p", 1)
	if w.Len() != 2 {
		t.Fatalf("Len = %d, want 2", w.Len())
	}
	if got := w.Trigger("/p", EventNodeDataChanged); !slices.Equal(got, []int64{1}) {
		t.Fatalf("first change fired %v, want [1]", got)
	}
	if got := w.Trigger("/p", EventNodeDataChanged); len(got) != 0 {
		t.Fatalf("second change fired %v: the data watch was one-shot", got)
	}
	if got := w.Trigger("/p", EventNodeChildrenChanged); !slices.Equal(got, []int64{1}) {
		t.Fatalf("children changed fired %v: the child watch stays persistent", got)
	}
}

func TestRemoveAndCheckWatches(t *testing.T) {
	w := NewWatchTable()
	mustAddWatch(t, w, WatchPersistentRecursive, "/r", 1)
	w.Add(DataWatch, "/d", 1)
	steps := []struct {
		remove  bool
		typ     WatcherType
		path    string
		session int64
		want    error
	}{
		{false, WatcherChildren, "/r", 1, nil},
		{false, WatcherData, "/d", 2, nil}, // 3.8.0 looks for any session's watch
		{false, WatcherChildren, "/d", 1, ErrNoWatcher},
		{false, WatcherPersistent, "/r", 1, ErrMarshallingError},
		{false, WatcherPersistentRecursive, "/r", 1, ErrMarshallingError},
		{false, WatcherData, "no path", 1, ErrMarshallingError},
		{false, WatcherData, "", 1, ErrNoWatcher},
		{false, WatcherData, "/r/below", 1, ErrNoWatcher},
		{true, WatcherData, "/d", 2, ErrNoWatcher}, // but removes only its own
		{true, WatcherChildren, "/r", 1, nil},
		{true, WatcherChildren, "/r", 1, ErrNoWatcher},
		{true, WatcherAny, "/r", 1, nil},
		{true, WatcherAny, "/r", 1, ErrNoWatcher},
		{true, 0, "/d", 1, ErrMarshallingError},
		{true, WatcherAny, "/d", 1, nil},
	}
	for i, s := range steps {
		f := w.Check
		if s.remove {
			f = w.Remove
		}
		err := f(s.typ, s.path, s.session)
		if (s.want == nil) != (err == nil) || (s.want != nil && !errors.Is(err, s.want)) {
			t.Errorf("step %d (remove %v, type %d, %q, session %d): %v, want %v", i, s.remove, s.typ, s.path, s.session, err, s.want)
		}
	}
	if w.Len() != 0 {
		t.Fatalf("Len = %d after removing every watch", w.Len())
	}
	if got := w.Trigger("/r/x", EventNodeCreated); len(got) != 0 {
		t.Fatalf("a removed recursive watch fired for %v", got)
	}
}

func TestAddWatchRejectsUnknownModes(t *testing.T) {
	w := NewWatchTable()
	for _, m := range []WatchMode{-1, 2} {
		if err := w.AddWatch(m, "/p", 1); !errors.Is(err, ErrMarshallingError) {
			t.Errorf("AddWatch mode %d: %v, want MarshallingError", m, err)
		}
	}
	if w.Len() != 0 {
		t.Fatalf("Len = %d", w.Len())
	}
}

func TestPersistentWatchesGoWithTheirSession(t *testing.T) {
	w := NewWatchTable()
	mustAddWatch(t, w, WatchPersistentRecursive, "/r", 1)
	mustAddWatch(t, w, WatchPersistent, "/p", 1)
	mustAddWatch(t, w, WatchPersistent, "/p", 2)
	w.RemoveSession(1)
	if w.Len() != 2 {
		t.Fatalf("Len = %d, want 2 (session 2's watch on /p)", w.Len())
	}
	if got := w.Trigger("/r/x", EventNodeCreated); len(got) != 0 {
		t.Fatalf("a closed session's recursive watch fired: %v", got)
	}
}

func TestSetWatches2RegistersPersistentWatches(t *testing.T) {
	h := &notes{}
	w := NewWatchTable()
	w.SetWatches(h, &Request{Session: 5, RelZxid: 1, PersistentWatches: []string{"/p"}, RecursiveWatches: []string{"/r"}},
		func(string) (MWStat, bool) { return MWStat{}, false }, 2)
	if len(h.got) != 0 {
		t.Fatalf("setWatches2's persistent watches sent %v", h.got)
	}
	if w.Len() != 4 {
		t.Fatalf("Len = %d, want 4", w.Len())
	}
	if got := w.Trigger("/r/a/b", EventNodeDeleted); !slices.Equal(got, []int64{5}) {
		t.Fatalf("recursive /r: %v", got)
	}
	if got := w.Trigger("/p", EventNodeChildrenChanged); !slices.Equal(got, []int64{5}) {
		t.Fatalf("persistent /p: %v", got)
	}
}
