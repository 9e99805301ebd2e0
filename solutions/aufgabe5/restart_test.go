package aufgabe5

import (
	"fmt"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// TestRestartedReplicaComesBackThroughSetState: a replica stopped while
// more than snapCount writes happen comes back from a snapshot (its own
// and the leader's) and ends with the same state.
func TestRestartedReplicaComesBackThroughSetState(t *testing.T) {
	const snapCount = 50
	e := start(t, 3, svctest.Options{SnapCount: snapCount})
	f := follower(t, e)
	l := e.Leader()
	s := e.Session(t, l, time.Minute)
	mustOK(t, "create", create(e, t, l, s, "/r", "", mwzookeeper.Persistent))
	if err := e.Stop(f); err != nil {
		t.Fatal(err)
	}
	pushPastSnapshots(t, e, l, snapCount, func(k int) *req {
		return &req{Op: mwzookeeper.OpCreate, Session: s, Path: fmt.Sprintf("/r/%d", k), Data: []byte("x")}
	})
	if err := e.Restart(f); err != nil {
		t.Fatal(err)
	}
	e.WaitServing(t, f)
	waitSame(t, e)
	if n := e.Service(f).(*Service).restores.Load(); n == 0 {
		t.Fatalf("replica %d caught up without SetState", f)
	}
	r := mustOK(t, "read on the restarted replica", e.Do(t, f, &req{Op: mwzookeeper.OpGetChildren, Session: s, Path: "/r"}))
	if len(r.Children) != 10*snapCount {
		t.Fatalf("restarted replica has %d children of /r, want %d", len(r.Children), 10*snapCount)
	}
}

// pushPastSnapshots sends 10*snapCount writes (write(k) for each k) to
// replica l in rounds, each waited for: Zab snapshots at most once per
// batch of deliveries and keeps the log back to the previous snapshot, so
// only a few rounds push a stopped replica behind the leader's log, and it
// comes back through SetState.
func pushPastSnapshots(t *testing.T, e *svctest.Ensemble, l, snapCount int, write func(k int) *req) {
	t.Helper()
	for round := 0; round < 5; round++ {
		var last <-chan *resp
		for k := round * 2 * snapCount; k < (round+1)*2*snapCount; k++ {
			last = e.DoAsync(l, write(k))
		}
		mustOK(t, "last write of a round", <-last)
	}
}
