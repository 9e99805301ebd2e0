// Package sim runs whole Zab ensembles of core.Core state machines on a
// simulated network and disk, driven by one seeded random source, and checks
// the protocol's invariants after every step.
//
// A schedule (Run) has a fault phase — crashes (also in the middle of a
// write, also every peer at once), restarts from what was synced, pauses,
// partitions (also one-way), lost, duplicated, delayed and reordered
// messages, skewed clocks, snapshots, proposals and syncs from random peers —
// and then a calm phase in which a new proposal must be delivered on every
// peer within livenessBound ticks.
//
// Invariants checked: at most one established leader per epoch; every two
// peers' delivered sequences are prefix-related (agreement, total order); no
// message delivered twice; per-proposer order; an established leader's
// history holds every message of an earlier epoch delivered anywhere;
// timestamps strictly increase along the delivered order; DeliverSync comes
// only after everything delivered anywhere before the Sync call; no peer is
// sent a history that contradicts its own; liveness.
//
// A schedule is a pure function of its seed: the same seed gives the same
// trace byte for byte, so a failing seed replays:
//
//	ZAB_SEED=<seed> go test ./zab/sim -run TestSimulation -v
//
// Bugs switches on known protocol errors; TestSimulatorCatchesBugs proves the
// checks can fail.
package sim
