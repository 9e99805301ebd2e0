package main

import (
	"context"
	"slices"
	"testing"

	"zablab/mwzookeeper/conformance"
)

// TestSuiteGetsTheSeedAndTheReplayCommand: the sheet's replay command
// (MWZK_SEED=N make grade PART=...) reaches the suite, and the suite's
// replay lines name the grading that ran, not the copy's assignments/.
func TestSuiteGetsTheSeedAndTheReplayCommand(t *testing.T) {
	for _, c := range []struct {
		o    options
		want string
	}{
		{options{impl: "assignment"}, "make grade RACE=0"},
		{options{impl: "solution"}, "make grade IMPL=solution RACE=0"},
		{options{impl: "solution", variant: "/x/solutions/variants/local-clock.diff"}, "make grade-variant V=local-clock RACE=0"},
		{options{submission: "hand-ins/ada.tar.gz"}, "make grade SUBMISSION=hand-ins/ada.tar.gz RACE=0"},
		{options{submission: "repo", ref: "v1"}, "make grade SUBMISSION=repo REF=v1 RACE=0"},
	} {
		if got := c.o.replayCommand(); got != c.want {
			t.Errorf("replayCommand of %+v = %q, want %q", c.o, got, c.want)
		}
	}
	cmd, jr, err := suiteCommand(context.Background(), &tree{dir: t.TempDir()}, "suite.test",
		runSpec{timeout: 1, seed: "4242", replay: "make grade IMPL=solution"})
	if err != nil {
		t.Fatal(err)
	}
	defer jr.finish(nil)
	for _, want := range []string{"MWZK_SEED=4242", conformance.ReplayEnv + "=make grade IMPL=solution"} {
		if !slices.Contains(cmd.Env, want) {
			t.Errorf("the suite's environment lacks %s", want)
		}
	}
}
