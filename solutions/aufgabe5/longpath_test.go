package aufgabe5

import (
	"strings"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// TestLongPathCreateIsAnswered: a create of a 70,000-byte path (a valid
// path: ValidatePath has no length limit, the wire frame holds 1 MiB, and
// real ZooKeeper 3.8 creates it) is answered. (Found in review: every
// replica's decoder refused paths over 64 KiB at delivery and returned
// without answering: the client waited for ever, and every later read of
// its session queued behind it.)
func TestLongPathCreateIsAnswered(t *testing.T) {
	e := start(t, 1, svctest.Options{DoTimeout: 3 * time.Second})
	s := e.Session(t, 1, time.Minute)
	long := "/" + strings.Repeat("a", 70000)
	if err := mwzookeeper.ValidatePath(long, false); err != nil {
		t.Fatalf("ValidatePath refuses it: %v", err)
	}
	ch := e.DoAsync(1, &req{Op: mwzookeeper.OpCreate, Session: s, Path: long, Mode: mwzookeeper.Persistent})
	select {
	case r := <-ch:
		mustOK(t, "create of a 70001-byte path", r)
	case <-time.After(3 * time.Second):
		rd := e.DoAsync(1, &req{Op: mwzookeeper.OpExists, Session: s, Path: "/"})
		select {
		case <-rd:
			t.Fatalf("create of a %d-byte path never answered (zxid now %#x)", len(long), zxidOf(e, 1))
		case <-time.After(2 * time.Second):
			t.Fatalf("create of a %d-byte path never answered, and the session's next read (exists /) hangs behind it", len(long))
		}
	}
}
