package main

import (
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
)

// Grading under the race detector (--race, make grade RACE=1). Without it
// a data race in graded code is more than a wrong answer: two goroutines
// writing one interface variable with two types of the same layout give the
// graded code a byte slice over the whole process, the suite's functions
// and the seal key included, with no unsafe. Under the race detector
// with halt_on_error the run stops at the first race, before such a slice
// can be used; the tests it cut short, and those after them, earn nothing.

// raceExitCode is the exit status the race detector halts a run with
// (GORACE exitcode): Go's own default, said so that an instructor's GORACE
// cannot change it.
const raceExitCode = 66

// raceEnv is the run's GORACE: stop at the first report, and write it to
// the standard error the grader reads (log_path), not to a file the graded
// code could write or the report would not show.
var raceEnv = fmt.Sprintf("GORACE=halt_on_error=1 exitcode=%d log_path=stderr", raceExitCode)

// raceLines bounds the race's report quoted in the grade: its first
// access and the one it raced with, each with a few frames.
const raceLines = 16

// raceHalted starts what raceProblem says of the halt (the gradebook's
// note is it up to the colon).
const raceHalted = "a data race halted run"

// raceMark is the line a report of the race detector starts with.
const raceMark = "WARNING: DATA RACE"

// raceNoise is what the race detector says of the sandbox, which has no
// /proc: it cannot read its binary's name (its reports' frames are Go's
// own, named all the same). It says nothing of the graded code.
var raceNoise = regexp.MustCompile(`^==\d+==WARNING: reading executable name failed`)

// raceRule is the line of equals signs around each of its reports.
const raceRule = "=================="

// buildMode is the go command's flags and environment for the suite's test
// binary. Without the race detector it is static (no cgo): the sandbox's
// root has none of the host's libraries. The race detector needs cgo on
// Linux (go1.26: "-race requires cgo"), so it is linked statically against
// the C library (libc.a, Debian's libc6-dev, and a C compiler), with Go's
// own resolver and user lookup (netgo, osusergo), which load nothing at run
// time either.
func buildMode(race bool) (flags, env []string) {
	if !race {
		return []string{"-trimpath", "-tags", buildTags(race)}, []string{"GOWORK=off", "CGO_ENABLED=0"}
	}
	return []string{"-trimpath", "-race", "-tags", buildTags(race), "-ldflags=-linkmode=external -extldflags=-static"},
		[]string{"GOWORK=off", "CGO_ENABLED=1"}
}

// buildTags are buildMode's build tags.
func buildTags(race bool) string {
	if race {
		return "mwzk_extra,netgo,osusergo"
	}
	return "mwzk_extra"
}

// raceWord is a make command line's RACE: " RACE=1" under the race
// detector, " RACE=0" without. RACE=1 is given though the race detector is
// make grade's default since 2026-11-29: a student's older handout, whose
// make grade ran without it, then replays such a grading as it was. Its
// makefiles took any RACE as on, RACE=0 too, so a grading without the
// race detector replays there with it (stricter; no spelling means "off"
// to both).
func raceWord(race bool) string {
	if race {
		return " RACE=1"
	}
	return " RACE=0"
}

// findRace is the first report of the race detector that halted run r,
// its first raceLines lines; nil when the run was not halted by one. Both
// the exit status and the report must be there: the graded code shares
// the standard error and could print a report's words, which alone count
// for nothing.
func findRace(r *run) []string {
	var ee *exec.ExitError
	if !r.race || !errors.As(r.exitErr, &ee) || ee.ExitCode() != raceExitCode {
		return nil
	}
	at := slices.Index(r.other, raceMark)
	if at < 0 {
		return nil
	}
	var out []string
	for _, l := range r.other[at:] {
		if l == raceRule || len(out) == raceLines {
			break
		}
		out = append(out, l)
	}
	return out
}

// racingTests are the tests that had started and not ended when the race
// detector halted run r, in name order.
func racingTests(r *run) []string {
	var out []string
	for name, o := range r.tests {
		if o.status == "" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// raceProblem is the report's line on a run halted by a data race: which
// run, in which test, and the race's first lines.
func raceProblem(r *run, n int, race []string) []string {
	where := "between tests"
	if tests := racingTests(r); len(tests) > 0 {
		where = "in test " + strings.Join(tests, ", ")
	}
	head := fmt.Sprintf("graded under the race detector; %s %d %s: the tests it cut short, and those after them, earn nothing", raceHalted, n, where)
	out := []string{head}
	for _, l := range race {
		out = append(out, "  "+l)
	}
	return out
}

// inRaceReport says, line by line, which of lines belong to a report of
// the race detector (its rules included): they are quoted, bounded, by
// raceProblem and left out of the rest.
func inRaceReport(lines []string) []bool {
	in := make([]bool, len(lines))
	open := false
	for k, l := range lines {
		switch {
		case l == raceRule && k+1 < len(lines) && lines[k+1] == raceMark:
			open = true
			in[k] = true
		case l == raceRule && open:
			open = false
			in[k] = true
		default:
			in[k] = open
		}
	}
	return in
}

// raceLine is a race's report in one line: the access that raced and
// where it was ("a data race: Write at 0x… by goroutine 9, at
// zablab/assignments/aufgabe5/tree.go:71").
func raceLine(race []string) string {
	line := "a data race"
	if len(race) > 1 {
		line += ": " + strings.TrimSuffix(race[1], ":")
	}
	for _, l := range race[1:] {
		if t := strings.TrimSpace(l); strings.HasPrefix(l, "      ") && strings.Contains(t, ".go:") {
			loc, _, _ := strings.Cut(t, " +0x")
			return line + ", at " + loc
		}
		if l == "" {
			break // the first access's frames end here
		}
	}
	return line
}
