package zab

import (
	"testing"
	"time"

	"zablab/internal/wait"
	"zablab/zab/trace"
)

// A follower's callbacks run before its disk writer syncs the batch: the
// trace must record the deliveries then, not once the fsync is done, or a
// write that never completes (a storage error, or Shutdown dropping the
// job) leaves a delivery the application got out of the trace.
func TestTraceRecordsEveryDeliveryTheApplicationGot(t *testing.T) {
	gateOf := gateLogs(t)
	e := newEnsemble(t, 3)
	dir := t.TempDir()
	e.traceTo(dir, 8<<20)
	defer e.stopAll()
	e.startAll()
	e.commit(1, "first")
	l := e.leader()
	f := l%3 + 1 // a follower
	g := gateOf(e.cfgs[f-1].DataLogDir)
	g.close()
	defer g.open()
	e.propose(l, "x")
	wait.For(t, "the follower delivering x while its fsync waits", 10*time.Second, func() bool {
		got, _ := e.apps[f-1].snapshot()
		return subsequence([]string{"x"}, got)
	})
	a := e.apps[f-1]
	a.mu.Lock()
	zx := a.ids[len(a.ids)-1].Zxid
	a.mu.Unlock()
	g.mu.Lock()
	g.fail = true
	g.mu.Unlock()
	g.open()
	err := e.zabs[f-1].Shutdown()
	e.zabs[f-1] = nil
	t.Logf("follower %d stopped: %v", f, err)
	evs, rerr := trace.ReadFile(e.cfgs[f-1].TraceFile)
	if rerr != nil {
		t.Fatal(rerr)
	}
	for _, ev := range evs {
		if ev.Kind == trace.KindDeliver && uint64(ev.Zxid) == uint64(zx) {
			return
		}
	}
	t.Fatalf("follower %d's application got x (zxid %v), its trace has no deliver event for it", f, zx)
}
