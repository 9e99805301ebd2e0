package timeline

import (
	"testing"

	"zablab/zab/sim"
	"zablab/zab/trace"
)

// simEvents records the simulator's schedule of o (as zab-sim runs it:
// Observers -1 lets the seed choose) and returns its events and result.
func simEvents(t *testing.T, o sim.Options) ([]trace.Event, sim.Result) {
	t.Helper()
	var evs []trace.Event
	o.Events = &evs
	r := sim.Run(o)
	if len(evs) == 0 {
		t.Fatalf("seed %d recorded no events", o.Seed)
	}
	return evs, r
}
