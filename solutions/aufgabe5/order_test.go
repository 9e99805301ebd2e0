package aufgabe5

import (
	"fmt"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// TestReadYourWrites pipelines write, read, write, read... of one session
// on a follower without waiting: every read must see the session's
// earlier writes, and replies come in order of the writes' effects.
func TestReadYourWrites(t *testing.T) {
	e := start(t, 3, svctest.Options{})
	f := follower(t, e)
	s := e.Session(t, f, time.Minute)
	const n = 200
	var reads, syncReads []<-chan *resp
	for k := 0; k < n; k++ {
		path := fmt.Sprintf("/o%d", k)
		e.DoAsync(f, &req{Op: mwzookeeper.OpCreate, Session: s, Path: path, Data: []byte(path)})
		reads = append(reads, e.DoAsync(f, &req{Op: mwzookeeper.OpGetData, Session: s, Path: path}))
		if k%20 == 0 {
			e.DoAsync(f, &req{Op: mwzookeeper.OpSync, Session: s, Path: "/"})
			syncReads = append(syncReads, e.DoAsync(f, &req{Op: mwzookeeper.OpGetChildren, Session: s, Path: "/"}))
		}
	}
	for k, ch := range reads {
		select {
		case r := <-ch:
			if r.Err != nil || string(r.Data) != fmt.Sprintf("/o%d", k) {
				t.Fatalf("read %d after its write: %q, %v", k, r.Data, r.Err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("read %d got no reply", k)
		}
	}
	r := e.Do(t, f, &req{Op: mwzookeeper.OpSync, Session: s, Path: "/o1"})
	if r.Err != nil || r.Path != "/o1" {
		t.Fatalf("sync answered %q, %v; want its path", r.Path, r.Err)
	}
	for k, ch := range syncReads {
		r := <-ch
		if len(r.Children) != 20*k+2 { // the writes so far, and /zookeeper
			t.Fatalf("getChildren after sync %d: %d children", k, len(r.Children))
		}
	}
}
