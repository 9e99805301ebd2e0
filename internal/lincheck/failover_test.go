package lincheck

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"zablab/internal/histview"
	"zablab/internal/svctest"
)

// TestLookingPeriodsOfTheStoppedReplicaStartAtItsRestart: the stopped
// replica's Serving(false) at its stop would draw LOOKING over its "down"
// period; the period starts at the restart instead, and one still open
// ends with the history.
func TestLookingPeriodsOfTheStoppedReplicaStartAtItsRestart(t *testing.T) {
	t0 := time.Now()
	at := func(x time.Time) int64 { return int64(x.Sub(t0)) }
	ch := func(ns int64, serving bool) svctest.ServingChange {
		return svctest.ServingChange{At: t0.Add(time.Duration(ns)), Serving: serving}
	}
	changes := []svctest.ServingChange{ch(0, true), ch(100, false), ch(900, true), ch(1000, false)}
	got := lookingPeriods(3, changes, at, 500, 2000)
	want := []histview.Fault{
		{Replica: 3, Kind: histview.Looking, Start: 500, End: 900},
		{Replica: 3, Kind: histview.Looking, Start: 1000, End: 2000},
	}
	if d := cmp.Diff(want, got, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Details" }, cmp.Ignore())); d != "" {
		t.Errorf("LOOKING periods (-want +got):\n%s", d)
	}
	if got := lookingPeriods(3, changes[:3], at, 1000, 2000); len(got) != 0 {
		t.Errorf("a period that ended before notBefore: %v, want none", got)
	}
}
