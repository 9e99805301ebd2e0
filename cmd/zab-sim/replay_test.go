package main

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"zablab/zab/sim"
)

// mustParse parses args as main does.
func mustParse(t *testing.T, args []string) *config {
	t.Helper()
	c, err := parse(pflag.NewFlagSet("zab-sim", pflag.ContinueOnError), args)
	if err != nil {
		t.Fatalf("parse %q: %v", args, err)
	}
	return c
}

// makeArgs are the zab-sim arguments that make sim-html runs for vars,
// from make -n in the repository's root, --html and its file left out.
func makeArgs(t *testing.T, vars ...string) []string {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed: the replay line's make form cannot be checked (CI installs make)")
	}
	out, err := exec.Command("make", append([]string{"-s", "-n", "-C", "../..", "sim-html"}, vars...)...).Output()
	if err != nil {
		t.Fatalf("make -n sim-html %s: %v", strings.Join(vars, " "), err)
	}
	text := strings.ReplaceAll(string(out), "\\\n", " ")
	_, cmd, ok := strings.Cut(text, "./bin/zab-sim ")
	if !ok {
		t.Fatalf("make -n sim-html %s runs no zab-sim:\n%s", strings.Join(vars, " "), out)
	}
	cmd, _, _ = strings.Cut(cmd, ";")
	var args []string
	for f := range strings.FieldsSeq(cmd) {
		if len(args) > 0 && args[len(args)-1] == "--html" {
			args = args[:len(args)-1]
			continue
		}
		args = append(args, f)
	}
	return args
}

// TestReplayKeepsTheSchedulesOptions: both replay lines, the make form and
// the zab-sim form, as the page notes and the "draw one" line print them,
// give zab-sim the same seed and the same schedule options as the run.
func TestReplayKeepsTheSchedulesOptions(t *testing.T) {
	for _, args := range [][]string{
		{"--seed", "7"},
		{"--seeds", "10", "--voters", "3", "--observers", "0", "--steps", "40"},
		{"--seed", "9", "--bug", "skip-synchronization", "--observers", "2", "--silent-crashes", "--finalize-wait", "3ms"},
		{"--seed", "5", "--bug", "accept-old-epoch"},
		{"--seed", "5", "--bug", "accept-old-epoch", "--voters", "5", "--steps", "30"},
	} {
		c := mustParse(t, args)
		seed := c.first + 3
		notes := strings.Join(c.page(seed).Notes, "\n")
		for _, line := range []string{"replay: " + c.replayMake(seed), "or: " + c.replayRun(seed)} {
			if !strings.Contains(notes, line) {
				t.Fatalf("%q: the page's notes lack %q:\n%s", args, line, notes)
			}
		}
		// TestSimulation replays a seed alone: no line for another shape.
		if plain := len(args) == 2; strings.Contains(notes, "text trace:") != plain {
			t.Errorf("%q: the page's notes offer TestSimulation's text trace: %v, want %v:\n%s",
				args, !plain, plain, notes)
		}
		want := c.opts
		want.Seed = seed
		run, _ := strings.CutPrefix(c.replayRun(seed), "go run ./cmd/zab-sim ")
		vars, _ := strings.CutPrefix(c.replayMake(seed), "make sim-html ")
		for form, rargs := range map[string][]string{"go run": strings.Fields(run), "make": makeArgs(t, strings.Fields(vars)...)} {
			r := mustParse(t, rargs)
			got := r.opts
			got.Seed = r.seed
			if !r.one || got != want || r.bug != c.bug {
				t.Errorf("%q: the %s replay %q runs %+v with bug %q, want %+v with bug %q",
					args, form, rargs, got, r.bug, want, c.bug)
			}
		}
	}
}

// TestReplayKnowsEveryOption: a new field of sim.Options shapes schedules
// too; replayOpts must write it, and then this list names it.
func TestReplayKnowsEveryOption(t *testing.T) {
	known := []string{"Seed", "Voters", "Observers", "Steps", "Bugs", "Trace", "Events", "SilentCrashes", "FinalizeWait"}
	var fields []string
	for f := range reflect.TypeFor[sim.Options]().Fields() {
		fields = append(fields, f.Name)
	}
	if !reflect.DeepEqual(fields, known) {
		t.Fatalf("sim.Options has the fields %v, replayOpts knows %v: write the new ones in the replay lines", fields, known)
	}
}

// TestEveryBugFailsWithinTheMakeBudget: make sim-html BUG=<switch>, with
// the seeds and the schedule shape it runs, finds a failing seed for every
// bug switch.
func TestEveryBugFailsWithinTheMakeBudget(t *testing.T) {
	for name := range bugs {
		c := mustParse(t, makeArgs(t, "BUG="+name))
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for seed := c.first; seed < c.first+uint64(c.seeds); seed++ {
				o := c.opts
				o.Seed = seed
				if r := sim.Run(o); r.Failed() {
					t.Logf("caught at seed %d: %v", seed, r)
					return
				}
			}
			t.Errorf("make sim-html BUG=%s: no failing seed among %d from %d with %+v", name, c.seeds, c.first, c.opts)
		})
	}
}
