package aufgabe5

import (
	"slices"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

func events(e *svctest.Ensemble, i int, s int64) []mwzookeeper.EventType {
	var out []mwzookeeper.EventType
	for _, ev := range e.Host(i).Events(s) {
		out = append(out, ev.Type)
	}
	return out
}

// TestWatchesFireOnceWithTheRightTypes: watches left on replica 2 fire
// for writes made on replica 1, each once.
func TestWatchesFireOnceWithTheRightTypes(t *testing.T) {
	e := start(t, 3, svctest.Options{})
	w := e.Session(t, 2, time.Minute)
	a := e.Session(t, 1, time.Minute)
	watch := func(op mwzookeeper.OpCode, path string) *resp {
		return e.Do(t, 2, &req{Op: op, Session: w, Path: path, Watch: true})
	}
	mustErr(t, "exists watch on a missing node", watch(mwzookeeper.OpExists, "/w"), mwzookeeper.ErrNoNode)
	mustErr(t, "getData on a missing node leaves no watch", watch(mwzookeeper.OpGetData, "/nowatch"), mwzookeeper.ErrNoNode)
	mustOK(t, "create", create(e, t, 1, a, "/w", "", mwzookeeper.Persistent))
	wait.For(t, "NodeCreated", 10*time.Second, func() bool { return len(events(e, 2, w)) == 1 })
	mustOK(t, "getData watch", watch(mwzookeeper.OpGetData, "/w"))
	mustOK(t, "getChildren watch", watch(mwzookeeper.OpGetChildren, "/w"))
	mustOK(t, "setData", e.Do(t, 1, &req{Op: mwzookeeper.OpSetData, Session: a, Path: "/w", Version: -1}))
	mustOK(t, "setData again", e.Do(t, 1, &req{Op: mwzookeeper.OpSetData, Session: a, Path: "/w", Version: -1}))
	mustOK(t, "create child", create(e, t, 1, a, "/w/c", "", mwzookeeper.Persistent))
	mustOK(t, "create nowatch", create(e, t, 1, a, "/nowatch", "", mwzookeeper.Persistent))
	mustOK(t, "sync", e.Do(t, 2, &req{Op: mwzookeeper.OpSync, Session: w, Path: "/"})) // reads are local: catch up first
	mustOK(t, "getData watch", watch(mwzookeeper.OpGetData, "/w/c"))
	mustOK(t, "delete child", e.Do(t, 1, &req{Op: mwzookeeper.OpDelete, Session: a, Path: "/w/c", Version: -1}))
	want := []mwzookeeper.EventType{mwzookeeper.EventNodeCreated, mwzookeeper.EventNodeDataChanged,
		mwzookeeper.EventNodeChildrenChanged, mwzookeeper.EventNodeDeleted}
	wait.For(t, "four events", 10*time.Second, func() bool { return len(events(e, 2, w)) >= len(want) })
	mustOK(t, "sync", e.Do(t, 2, &req{Op: mwzookeeper.OpSync, Session: w, Path: "/"}))
	if got := events(e, 2, w); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for i := 1; i <= 3; i++ {
		if i != 2 && len(e.Host(i).Events(w)) != 0 {
			t.Fatalf("replica %d sent events of a session connected to replica 2", i)
		}
	}
	if n := e.Service(2).(mwzookeeper.Reporter).Stats().Watches; n != 0 {
		t.Fatalf("%d watches left after all fired", n)
	}
}

// TestWatchEventBeforeTheNewData: a client that reads the new data has
// already been sent the event of the change.
func TestWatchEventBeforeTheNewData(t *testing.T) {
	e := start(t, 3, svctest.Options{})
	f := follower(t, e)
	w := e.Session(t, f, time.Minute)
	a := e.Session(t, e.Leader(), time.Minute)
	mustOK(t, "create", create(e, t, f, w, "/x", "0", mwzookeeper.Persistent))
	for k := 1; k <= 50; k++ {
		mustOK(t, "watch", e.Do(t, f, &req{Op: mwzookeeper.OpGetData, Session: w, Path: "/x", Watch: true}))
		before := len(e.Host(f).Events(w))
		e.DoAsync(e.Leader(), &req{Op: mwzookeeper.OpSetData, Session: a, Path: "/x", Data: []byte{byte(k)}, Version: -1})
		wait.For(t, "the new data on the follower", 10*time.Second, func() bool {
			r := e.Do(t, f, &req{Op: mwzookeeper.OpGetData, Session: w, Path: "/x"})
			if len(r.Data) != 1 || r.Data[0] != byte(k) {
				return false
			}
			if got := len(e.Host(f).Events(w)); got != before+1 {
				t.Fatalf("round %d: the new data was read with %d new events, want 1", k, got-before)
			}
			return true
		})
	}
}

func TestClosingASessionRemovesItsWatches(t *testing.T) {
	e := start(t, 1, svctest.Options{})
	w := e.Session(t, 1, time.Minute)
	e.Do(t, 1, &req{Op: mwzookeeper.OpExists, Session: w, Path: "/q", Watch: true})
	mustOK(t, "close", e.Do(t, 1, &req{Op: mwzookeeper.OpCloseSession, Session: w}))
	if n := e.Service(1).(mwzookeeper.Reporter).Stats().Watches; n != 0 {
		t.Fatalf("%d watches after close", n)
	}
}

func TestSetWatchesFiresWhatChanged(t *testing.T) {
	e := start(t, 1, svctest.Options{})
	w := e.Session(t, 1, time.Minute)
	r := mustOK(t, "create", create(e, t, 1, w, "/s", "", mwzookeeper.Persistent))
	mustOK(t, "setData", e.Do(t, 1, &req{Op: mwzookeeper.OpSetData, Session: w, Path: "/s", Version: -1}))
	mustOK(t, "setWatches", e.Do(t, 1, &req{Op: mwzookeeper.OpSetWatches, Session: w, RelZxid: r.Zxid,
		DataWatches: []string{"/s"}, ExistWatches: []string{"/new"}}))
	if got := events(e, 1, w); !slices.Equal(got, []mwzookeeper.EventType{mwzookeeper.EventNodeDataChanged}) {
		t.Fatalf("setWatches fired %v", got)
	}
	mustOK(t, "create", create(e, t, 1, w, "/new", "", mwzookeeper.Persistent))
	if got := events(e, 1, w); len(got) != 2 || got[1] != mwzookeeper.EventNodeCreated {
		t.Fatalf("the exist watch set by setWatches: %v", got)
	}
}
