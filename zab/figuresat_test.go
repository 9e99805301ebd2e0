package zab

import (
	"testing"
	"time"

	"zablab/internal/wait"
)

// The test suite of the course finds an ensemble's leader by its peers'
// addresses (PeerFiguresAt), not by what the application says of itself:
// the figures there must name the peer that leads, and vanish when it stops.
func TestPeerFiguresAtNamesTheLeader(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	e.startAll()
	l := e.leader()
	at := func(i int) (Figures, bool) { return PeerFiguresAt(e.cfgs[i-1].Peers[i-1].Addr) }
	wait.For(t, "the figures by address agree with the callbacks", 5*time.Second, func() bool {
		for i := 1; i <= 3; i++ {
			f, ok := at(i)
			if !ok || (f.Role == Leading) != (i == l) || f.Leader != uint64(l) {
				return false
			}
		}
		return true
	})
	e.stop(l)
	if f, ok := at(l); ok {
		t.Errorf("peer %d stopped, but PeerFiguresAt still has figures for it: %+v", l, f)
	}
	wait.For(t, "a new leader among the figures", 10*time.Second, func() bool {
		for i := 1; i <= 3; i++ {
			if f, ok := at(i); i != l && ok && f.Role == Leading {
				return true
			}
		}
		return false
	})
}
