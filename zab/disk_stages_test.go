package zab

import (
	"sync"
	"testing"
	"time"

	"zablab/internal/wait"
)

// The leader's own proposal, committed by the followers' ACKs while its
// own fsync waits (what the disk writer allows), must still be observed
// in every stage: the StageBoard must hold its stamps during Deliver, as
// it did when the fsync ran before any delivery.
func TestLeaderStagesWhenCommittedBeforeOwnFsync(t *testing.T) {
	gateOf := gateLogs(t)
	e := newEnsemble(t, 3)
	defer e.stopAll()
	e.startAll()
	e.commit(1, "first")
	l := e.leader()
	g := gateOf(e.cfgs[l-1].DataLogDir)
	app := e.apps[l-1]
	board := StageBoardOf(uint64(l))
	type seen struct {
		m  string
		ok bool
	}
	var smu sync.Mutex
	var got []seen
	app.mu.Lock()
	app.onDeliver = func(m string) {
		app.mu.Lock()
		id := app.ids[len(app.ids)-1]
		app.mu.Unlock()
		if id.Proposer != uint64(l) {
			return
		}
		_, ok := board.Lookup(id.Zxid)
		smu.Lock()
		got = append(got, seen{m, ok})
		smu.Unlock()
	}
	app.mu.Unlock()
	// With the gate open, the leader's own write is observed.
	e.commit(l, "open")
	g.close()
	defer g.open()
	e.propose(l, "while the leader syncs")
	wait.For(t, "delivery on the leader while its fsync waits", 5*time.Second, func() bool {
		return e.allHave("while the leader syncs")
	})
	g.open()
	smu.Lock()
	defer smu.Unlock()
	if len(got) == 0 || got[len(got)-1].m != "while the leader syncs" {
		t.Fatalf("deliveries seen by the hook: %v; want the one made while the leader synced last", got)
	}
	for _, s := range got {
		if !s.ok {
			t.Errorf("leader delivered its own %q with no stages on its StageBoard (Lookup false)", s.m)
		}
	}
	t.Logf("deliveries checked: %v", got)
}
