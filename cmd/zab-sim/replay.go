package main

import (
	"fmt"
	"strings"
)

// A schedule is a pure function of its sim.Options, so a printed seed
// replays only with every option that shaped it: a seed that fails with
// three voters may pass, or fail elsewhere, with the seed's own choice.
// replayOpts lists those options once, for both forms of the replay line.

// replayOpt is one schedule-shaping option: its zab-sim flag, its make
// variable (mk/pictures.mk), and its value; "" when it has the default,
// which both forms leave out. A switch (boolean) is "1" when on: its
// flag is written without a value.
type replayOpt struct {
	flag, makeVar, value string
	switched             bool
}

func (c *config) replayOpts(seed uint64) []replayOpt {
	o := c.opts
	opts := []replayOpt{{"seed", "SEED", fmt.Sprint(seed), false}, {"bug", "BUG", c.bug, false}}
	if o.Voters != 0 {
		opts = append(opts, replayOpt{"voters", "VOTERS", fmt.Sprint(o.Voters), false})
	}
	if o.Observers >= 0 {
		opts = append(opts, replayOpt{"observers", "OBSERVERS", fmt.Sprint(o.Observers), false})
	}
	if o.Steps != 0 {
		opts = append(opts, replayOpt{"steps", "STEPS", fmt.Sprint(o.Steps), false})
	}
	if o.SilentCrashes {
		opts = append(opts, replayOpt{"silent-crashes", "SILENT_CRASHES", "1", true})
	}
	if o.FinalizeWait != 0 {
		opts = append(opts, replayOpt{"finalize-wait", "FINALIZE_WAIT", o.FinalizeWait.String(), false})
	}
	return opts
}

// plain says whether the schedule is the seed's alone: no bug, every
// shaping option at its default.
func (c *config) plain() bool {
	for _, o := range c.replayOpts(0)[1:] {
		if o.value != "" {
			return false
		}
	}
	return true
}

// replayMake is the make command that draws seed's schedule again.
func (c *config) replayMake(seed uint64) string {
	parts := []string{"make sim-html"}
	for _, o := range c.replayOpts(seed) {
		if o.value != "" {
			parts = append(parts, o.makeVar+"="+o.value)
		}
	}
	return strings.Join(parts, " ")
}

// replayRun is the zab-sim command line that runs seed's schedule again.
func (c *config) replayRun(seed uint64) string {
	parts := []string{"go run ./cmd/zab-sim"}
	for _, o := range c.replayOpts(seed) {
		switch {
		case o.value == "":
		case o.switched:
			parts = append(parts, "--"+o.flag)
		default:
			parts = append(parts, "--"+o.flag, o.value)
		}
	}
	return strings.Join(parts, " ")
}
