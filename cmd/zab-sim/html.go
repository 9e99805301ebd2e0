package main

import (
	"errors"
	"fmt"

	"zablab/zab/sim"
	"zablab/zab/trace"
	"zablab/zab/trace/timeline"
)

// draw replays one schedule with its events recorded and writes its page:
// --seed's, or else the first failing seed's.
func (c *config) draw(failed []sim.Result) error {
	seed := c.seed
	if !c.one {
		if len(failed) == 0 {
			return errors.New("--html: no seed in the range failed; name one with --seed")
		}
		seed = failed[0].Seed
	}
	p := c.page(seed)
	if err := timeline.WriteFile(c.html, p); err != nil {
		return err
	}
	fmt.Printf("zab-sim: seed %d drawn in %s (%d events); open it in a browser\n", seed, c.html, len(p.Events))
	return nil
}

// page runs seed with opts, recording, and describes the result. A
// schedule is a pure function of its options, so this replays exactly the
// run that failed.
func (c *config) page(seed uint64) *timeline.Page {
	var evs []trace.Event
	opts, bug := c.opts, c.bug
	opts.Seed, opts.Events = seed, &evs
	r := sim.Run(opts)
	title := fmt.Sprintf("zab-sim seed %d", seed)
	if bug != "" {
		title += " with bug " + bug
	}
	summary := fmt.Sprintf("ok: %d voters, %d observers, %d messages delivered, live %d ticks after the faults ended",
		r.Voters, r.Observers, r.Delivered, r.LivenessTicks)
	if r.Failed() {
		summary = fmt.Sprintf("VIOLATION at step %d: %s: %s", r.Step, r.Invariant, r.Detail)
	}
	notes := []string{fmt.Sprintf("%d voters, %d observers", r.Voters, r.Observers),
		"replay: " + c.replayMake(seed), "or: " + c.replayRun(seed)}
	if c.plain() { // TestSimulation knows the seed alone, no bug and no shape
		notes = append(notes, fmt.Sprintf("text trace: ZAB_SEED=%d go test ./zab/sim -run TestSimulation -v", seed))
	}
	return &timeline.Page{Title: title, Summary: summary, Notes: notes, Events: evs}
}
