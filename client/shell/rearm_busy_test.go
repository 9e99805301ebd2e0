package shell

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"zablab/client"
	"zablab/mwzookeeper"
)

// waitStack polls (no sleep) until some goroutine's stack holds all of subs.
func waitStack(t *testing.T, subs ...string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for i := 0; ; i++ {
		n := runtime.Stack(buf, true)
		for _, g := range strings.Split(string(buf[:n]), "\n\n") {
			all := true
			for _, s := range subs {
				if !strings.Contains(g, s) {
					all = false
					break
				}
			}
			if all {
				return
			}
		}
		if i > 1e6 {
			t.Fatalf("no goroutine with %q", subs)
		}
		runtime.Gosched()
	}
}

// TestRearmWaitsForABusyGoroutine: the watch on /a fired first (Seq 1), its
// goroutine has taken the event but not yet s.mu; the watch on /b fired
// next (Seq 2). "get -w /a" re-arms /a while the old goroutine is busy:
// its event must still print before /b's (a review found /b printed at
// once, /a's Seq 1 after it, because the re-arm forgot the busy goroutine).
func TestRearmWaitsForABusyGoroutine(t *testing.T) {
	var out bytes.Buffer
	s := New("127.0.0.1:1", Options{Out: &out})
	chA := make(chan client.Event, 1)
	s.watch("data /a", chA)
	hold := make(chan struct{})
	defer close(hold)
	s.beforeEventWait = func() { <-hold }
	chB := make(chan client.Event, 1)
	s.watch("child /b", chB)
	s.beforeEventWait = nil

	s.mu.Lock()
	done := make(chan struct{})
	go func() { // the re-arm, as cmdGet does it
		defer close(done)
		s.watch("data /a", make(chan client.Event, 1))
	}()
	waitStack(t, "shell.(*Shell).watch(", "SemacquireMutex")
	chA <- client.Event{Type: mwzookeeper.EventType(3), Path: "/a", Seq: 1} // NodeDataChanged
	close(chA)
	chB <- client.Event{Type: mwzookeeper.EventType(4), Path: "/b", Seq: 2} // NodeChildrenChanged
	close(chB)
	waitStack(t, "shell.(*Shell).watch.func1", "SemacquireMutex")
	s.mu.Unlock()
	<-done
	s.flushEvents()
	for {
		s.mu.Lock()
		got := out.String()
		s.mu.Unlock()
		if strings.Count(got, "WATCHER::") == 2 {
			ia, ib := strings.Index(got, "path:/a"), strings.Index(got, "path:/b")
			if ia > ib {
				t.Fatalf("/a's event (Seq 1) printed after /b's (Seq 2):\n%s", got)
			}
			return
		}
		runtime.Gosched()
	}
}
