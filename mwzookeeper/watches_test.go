package mwzookeeper

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sirupsen/logrus"
)

// notes records what a WatchTable sends through a Host.
type notes struct {
	mu  sync.Mutex
	got []string
}

func (n *notes) Now() time.Time             { return time.Time{} }
func (n *notes) Logger() logrus.FieldLogger { return logrus.New() }
func (n *notes) SessionClosed(int64, bool)  {}
func (n *notes) Serving(bool)               {}
func (n *notes) Notify(s int64, ev WatchEvent) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.got = append(n.got, itoa(s)+" "+ev.Type.String()+" "+ev.Path)
}

func TestTriggerFiresTheRightKindsOnce(t *testing.T) {
	cases := []struct {
		typ  EventType
		want []int64
	}{
		{EventNodeCreated, []int64{1, 3}},
		{EventNodeDataChanged, []int64{1, 3}},
		{EventNodeChildrenChanged, []int64{2, 3}},
		{EventNodeDeleted, []int64{1, 2, 3}},
	}
	for _, c := range cases {
		w := NewWatchTable()
		w.Add(DataWatch, "/a", 1)
		w.Add(ChildWatch, "/a", 2)
		w.Add(DataWatch, "/a", 3)
		w.Add(ChildWatch, "/a", 3)
		w.Add(DataWatch, "/b", 1)
		if got := w.Trigger("/a", c.typ); !slices.Equal(got, c.want) {
			t.Errorf("%s on /a fired %v, want %v", c.typ, got, c.want)
		}
		if got := w.Trigger("/a", c.typ); len(got) != 0 {
			t.Errorf("%s fired twice: second time %v", c.typ, got)
		}
		if !slices.Contains(w.Watched(DataWatch, 1), "/b") {
			t.Errorf("%s on /a touched the watch on /b", c.typ)
		}
	}
}

func TestAddTwiceAndRemoveSession(t *testing.T) {
	w := NewWatchTable()
	w.Add(DataWatch, "/a", 7)
	w.Add(DataWatch, "/a", 7)
	w.Add(ChildWatch, "/a", 7)
	w.Add(DataWatch, "/a", 8)
	if w.Len() != 3 {
		t.Fatalf("Len = %d, want 3 (one data and one child watch of 7, one of 8)", w.Len())
	}
	w.RemoveSession(7)
	if w.Len() != 1 || len(w.Watched(DataWatch, 7)) != 0 || len(w.Watched(ChildWatch, 7)) != 0 {
		t.Fatalf("after RemoveSession(7): Len %d, data %v, child %v", w.Len(), w.Watched(DataWatch, 7), w.Watched(ChildWatch, 7))
	}
	if got := w.Trigger("/a", EventNodeDeleted); !slices.Equal(got, []int64{8}) {
		t.Fatalf("delete fired %v, want [8]", got)
	}
}

func TestSetWatchesFiresWhatChanged(t *testing.T) {
	tree := map[string]MWStat{"/same": {Mzxid: 5, Pzxid: 5}, "/data": {Mzxid: 9, Pzxid: 5}, "/kids": {Mzxid: 5, Pzxid: 9}}
	lookup := func(p string) (MWStat, bool) { st, ok := tree[p]; return st, ok }
	h := &notes{}
	w := NewWatchTable()
	w.SetWatches(h, &Request{Session: 4, RelZxid: 6,
		DataWatches:  []string{"/same", "/data", "/gone"},
		ExistWatches: []string{"/data", "/absent"},
		ChildWatches: []string{"/same", "/kids", "/gone"},
	}, lookup, 10)
	want := []string{"4 NodeDataChanged /data", "4 NodeDeleted /gone", "4 NodeCreated /data",
		"4 NodeChildrenChanged /kids", "4 NodeDeleted /gone"}
	if diff := cmp.Diff(want, h.got); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	if d, c := w.Watched(DataWatch, 4), w.Watched(ChildWatch, 4); !slices.Equal(d, []string{"/absent", "/same"}) ||
		!slices.Equal(c, []string{"/same"}) {
		t.Fatalf("registered data %v child %v, want [/absent /same] and [/same]", d, c)
	}
	w.Fire(h, WatchEvent{Type: EventNodeCreated, Path: "/absent", Zxid: 11})
	if last := h.got[len(h.got)-1]; last != "4 NodeCreated /absent" {
		t.Fatalf("Fire sent %q", last)
	}
}

func TestPathHelpers(t *testing.T) {
	for _, c := range [][3]string{{"/a", "/", "a"}, {"/a/b/c", "/a/b", "c"}, {"/", "/", ""}} {
		if Parent(c[0]) != c[1] || Base(c[0]) != c[2] {
			t.Errorf("Parent/Base(%q) = %q, %q; want %q, %q", c[0], Parent(c[0]), Base(c[0]), c[1], c[2])
		}
	}
	if Join("/", "a") != "/a" || Join("/a", "b") != "/a/b" {
		t.Error("Join")
	}
	if got := SequentialName("/q/item-", 7); got != "/q/item-0000000007" {
		t.Errorf("SequentialName = %q", got)
	}
	if got := SequentialName("/q/", -2147483648); got != "/q/-2147483648" {
		t.Errorf("SequentialName after overflow = %q", got)
	}
}
