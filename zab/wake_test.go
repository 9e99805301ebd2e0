package zab

import (
	"testing"
	"time"

	"zablab/internal/wait"
)

// TestElectionDecidesBetweenTicks: at ZooKeeper's tick of 2 s, the
// election after the leader's shutdown ends well inside one tick: the
// runtime wakes the core at its finalize deadline (200 ms) instead of
// deciding at a tick (at least a whole tick after the quorum agrees).
// Start-up may take ticks (votes sent before the peers connect wait for a
// resend), so only the failover is held to the bound.
func TestElectionDecidesBetweenTicks(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	for i := range e.cfgs {
		e.cfgs[i].TickTime = 2 * time.Second
	}
	for i := range e.cfgs {
		e.start(i + 1)
	}
	wait.For(t, "a leader and two followers", 30*time.Second, e.settled)
	old := e.leader()
	e.stop(old)
	wait.For(t, "a new leader within 1.5 s (less than a tick) of the old one's shutdown", 1500*time.Millisecond, func() bool {
		return e.settled() && e.leader() != old
	})
}
