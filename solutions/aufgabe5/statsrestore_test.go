package aufgabe5

import (
	"fmt"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

// TestRestoredReplicaReportsTheSameStats: a replica restored from a
// snapshot (SetState) must describe the same state as the others (srvr,
// mntr's zk_approximate_data_size). (Found in review: decodeNode counted
// the root's name, "/", in tree.dataSize and newTree did not, so every
// restored replica reported one byte more.)
func TestRestoredReplicaReportsTheSameStats(t *testing.T) {
	e := start(t, 3, svctest.Options{SnapCount: 20})
	f := follower(t, e)
	l := e.Leader()
	s := e.Session(t, l, time.Minute)
	for k := 0; k < 60; k++ {
		mustOK(t, "create", create(e, t, l, s, fmt.Sprintf("/n%d", k), "data", mwzookeeper.Persistent))
	}
	if err := e.Restart(f); err != nil {
		t.Fatal(err)
	}
	e.WaitServing(t, f)
	waitSame(t, e)
	if e.Service(f).(*Service).restores.Load() == 0 {
		t.Skip("no SetState with a snapshot on the restarted replica")
	}
	var a, b mwzookeeper.Stats
	wait.For(t, "stats", 5*time.Second, func() bool {
		a, b = e.Service(l).(mwzookeeper.Reporter).Stats(), e.Service(f).(mwzookeeper.Reporter).Stats()
		return a.Zxid == b.Zxid
	})
	if a.DataSize != b.DataSize || a.Nodes != b.Nodes {
		t.Fatalf("same state (same snapshot bytes), different Stats: replica %d (never restarted) DataSize %d Nodes %d, replica %d (restored) DataSize %d Nodes %d",
			l, a.DataSize, a.Nodes, f, b.DataSize, b.Nodes)
	}
}
