package sim

import (
	"testing"
	"time"

	"zablab/zab/core"
)

// TestSimulatorCatchesBugs proves the simulator can fail: each known
// protocol bug, switched on alone, must break an invariant within 2,000 seeds.
func TestSimulatorCatchesBugs(t *testing.T) {
	bugs := []struct {
		name string
		bugs Bugs
		opts Options // the schedules' shape; zero: picked from the seed
	}{
		{"follower ACKs before its log write is durable", Bugs{AckBeforeDurable: true}, Options{Observers: -1}},
		{"leader commits with fewer than a quorum of ACKs", Bugs{Bugs: core.Bugs{CommitWithoutQuorum: true}}, Options{Observers: -1}},
		{"election ignores the zxid", Bugs{Bugs: core.Bugs{ElectionIgnoresZxid: true}}, Options{Observers: -1}},
		{"new leader skips synchronization", Bugs{Bugs: core.Bugs{SkipSynchronization: true}}, Options{Observers: -1}},
		// Stale epochs need rival leaders, which quick elections make rare:
		// only few schedules show this bug (2026-11-28: seed 1367 alone of
		// 2,000 in this shape; none of 2,000 in the default shape).
		{"follower accepts a proposal from an older epoch", Bugs{Bugs: core.Bugs{AcceptOldEpoch: true}},
			Options{Voters: 3, FinalizeWait: tickLen * time.Millisecond}},
	}
	// Lost-connection reports make a crashed leader's followers leave it
	// at once, which hides the stale-epoch bug in all but rare schedules:
	// the self-test runs where crashes are silent (machines, not processes).
	for _, b := range bugs {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			for seed := uint64(1); seed <= 2000; seed++ {
				o := b.opts
				o.Seed, o.Bugs, o.SilentCrashes = seed, b.bugs, true
				r := Run(o)
				if r.Failed() {
					t.Logf("caught at seed %d, step %d: %s: %s", seed, r.Step, r.Invariant, r.Detail)
					return
				}
			}
			t.Errorf("bug %q survived 2,000 seeds: the simulator cannot see it", b.name)
		})
	}
}
