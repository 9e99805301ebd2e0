package main

import (
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRaceHaltsTheRun grades the data-race variant (a request counter
// written by Submit and the liveness loop without the lock) on A5.1: under
// the race detector its run halts at the race, the tests it cut short earn
// nothing and the report names the race and the test; without it, the
// variant keeps every point, as before. In the sandbox this also checks
// that GORACE reaches the race detector there (jail.Race): without
// halt_on_error the run goes on and only the test that raced fails.
func TestRaceHaltsTheRun(t *testing.T) {
	needGo(t)
	v, err := filepath.Abs(filepath.Join("..", "..", "solutions", "variants", "data-race.diff"))
	if err != nil {
		t.Fatal(err)
	}
	vr, err := loadVariant(v)
	if err != nil || !vr.race {
		t.Fatalf("variant %s: %v, race %v; want \"Race: yes\"", v, err, vr != nil && vr.race)
	}
	o := options{impl: "solution", variant: v, part: "A5.1", race: true}
	rep := gradeOrFail(t, o)
	if err := printVerdicts(io.Discard, vr, rep); err != nil {
		t.Errorf("under the race detector: %v", err)
	}
	if !rep.Race || rep.Required.Earned != 0 {
		t.Errorf("under the race detector: race %v, A5.1 %d/30; want it recorded and 0 (the race halts the first test)", rep.Race, rep.Required.Earned)
	}
	const head = "graded under the race detector; a data race halted run 1 in test A5.1/"
	if len(rep.Problems) == 0 || !strings.HasPrefix(rep.Problems[0], head) {
		t.Errorf("the problems do not start with %q: %q", head, rep.Problems)
	}
	for _, want := range []string{raceMark, "aufgabe5.(*Service).Submit.func1()", "aufgabe5/service.go:"} {
		if !slices.ContainsFunc(rep.Problems, func(p string) bool { return strings.Contains(p, want) }) {
			t.Errorf("the problems do not quote the race (%q): %q", want, rep.Problems)
		}
	}
	if slices.ContainsFunc(rep.Problems, raceNoise.MatchString) {
		t.Errorf("the problems keep the race detector's words on the missing /proc: %q", rep.Problems)
	}
	halted := false
	for _, tg := range rep.Parts[0].Tests {
		halted = halted || len(tg.Failure) > 0 && strings.HasPrefix(tg.Failure[0], "the race detector halted the run while this test ran: a data race")
	}
	if !halted {
		t.Errorf("no test's failure says the race detector halted it: %+v", rep.Parts[0].Tests)
	}
	if n := crashNote(&rep); !strings.HasPrefix(n, "a data race halted run 1 in test A5.1/") || strings.Contains(n, ":") {
		t.Errorf("the gradebook's note: %q", n)
	}
	if cmd := o.replayCommand(); !strings.HasSuffix(cmd, " RACE=1") {
		t.Errorf("replay command %q: want RACE=1", cmd)
	}

	o.race = false
	rep = gradeOrFail(t, o)
	if rep.Race || rep.Required.Earned != 30 || len(rep.Problems) > 0 {
		t.Errorf("without the race detector: race %v, A5.1 %d/30, problems %q; want 30/30 as before", rep.Race, rep.Required.Earned, rep.Problems)
	}
	if err := printVerdicts(io.Discard, vr, rep); err != nil {
		t.Errorf("without the race detector: %v", err)
	}
}

// TestFindRaceNeedsTheHalt: a race counts only when the run was under the
// race detector and ended with its exit status; words on the standard
// error, which the graded code shares, count for nothing alone.
func TestFindRaceNeedsTheHalt(t *testing.T) {
	exit := func(code string) error { return exec.Command("sh", "-c", "exit "+code).Run() }
	report := []string{"FAIL", raceRule, raceMark, "Write at 0x00c000 by goroutine 7:",
		"  zablab/assignments/aufgabe5.(*Service).Submit()", "      zablab/assignments/aufgabe5/service.go:157 +0x44", ""}
	for range 20 {
		report = append(report, "  more")
	}
	report = append(report, raceRule, "after")
	for _, c := range []struct {
		name  string
		race  bool
		code  string
		found bool
	}{{"halted", true, "66", true}, {"other exit", true, "1", false}, {"no race detector", false, "66", false}} {
		r := &run{race: c.race, exitErr: exit(c.code), other: report}
		got := findRace(r)
		if (got != nil) != c.found {
			t.Fatalf("%s: findRace = %q, want found %v", c.name, got, c.found)
		}
		if got == nil {
			continue
		}
		if len(got) != raceLines || got[0] != raceMark {
			t.Errorf("%s: %d lines from %q; want %d from the report's start", c.name, len(got), got[0], raceLines)
		}
		if l := raceLine(got); l != "a data race: Write at 0x00c000 by goroutine 7, at zablab/assignments/aufgabe5/service.go:157" {
			t.Errorf("raceLine = %q", l)
		}
		rest := otherProblems(r)
		if slices.Contains(rest, raceMark) || !slices.Contains(rest, "after") {
			t.Errorf("%s: the other problems quote the race again, or lose what follows it: %q", c.name, rest)
		}
	}
	if got := findRace(&run{race: true, exitErr: exit("66"), other: []string{"panic: x"}}); got != nil {
		t.Errorf("exit status 66 without a report: findRace = %q, want nil", got)
	}
}

// TestAgainCarriesRace: the report's command for grading a hand-in again,
// and the replay lines the suite prints, grade under the race detector
// when the grade was made under it.
func TestAgainCarriesRace(t *testing.T) {
	rep := &Report{Origin: "hand-ins/alice", Repeat: 1, Timeout: defaultTimeout.String(), Race: true}
	if got, want := againCommand(rep), "make grade SUBMISSION=hand-ins/alice RACE=1"; got != want {
		t.Errorf("againCommand = %q, want %q", got, want)
	}
	rep.Race = false
	if got, want := againCommand(rep), "make grade SUBMISSION=hand-ins/alice RACE=0"; got != want {
		t.Errorf("againCommand without the race detector = %q, want %q (make grade's default is with)", got, want)
	}
	for _, o := range []options{{submission: "hand-ins/bob", race: true}, {impl: "solution", race: true},
		{variant: "solutions/variants/data-race.diff", race: true}, {submission: "r", ref: "v1", race: true}} {
		if got := o.replayCommand(); !strings.HasSuffix(got, " RACE=1") {
			t.Errorf("replayCommand(%+v) = %q: want RACE=1", o, got)
		}
	}
}
