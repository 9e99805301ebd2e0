package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"zablab/internal/stacks"
)

// A submission that hangs (a Start that never returns, a lock never
// released) is stopped by the suite binary's own -test.timeout a little
// before the grader's deadline: then Go prints which tests were running and
// every goroutine's stack, and the report can name the graded code each
// hung test is stuck in, instead of only "not finished".

// suiteTimeout is the suite binary's -test.timeout for a run that may take
// until ctx's deadline: a tenth of the time left (at most 15 s) earlier,
// so Go's own timeout report comes before the grader kills the run.
func suiteTimeout(left time.Duration) time.Duration {
	return left - min(left/10, 15*time.Second)
}

// gradedPkg is the graded package's import path: its frames are the
// ones a report names.
var gradedPkg = "zablab/" + strings.TrimSuffix(gradedDir, "/")

// goTimeoutPrefix starts the line Go's testing package panics with.
const goTimeoutPrefix = "panic: test timed out after "

// stuckReport reads a run's output outside the tests for Go's timeout
// report: ok is false when there is none.
type stuckReport struct {
	after   string   // "2m42s"
	running []string // the suite's tests that were running, "A5.1/Session"
	frames  []string // the graded code on the stacks of blocked goroutines, "(*Service).Start (service.go:57)"
	loops   []string // the graded code on the other stacks (a select in a loop, a sleep)
}

func findStuck(lines []string) (s stuckReport, ok bool) {
	at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), goTimeoutPrefix) })
	if at < 0 {
		return s, false
	}
	s.after = strings.TrimPrefix(strings.TrimSpace(lines[at]), goTimeoutPrefix)
	inRunning := false
	for _, l := range lines[at+1:] {
		t := strings.TrimSpace(l)
		switch {
		case t == "running tests:":
			inRunning = true
		case inRunning && strings.HasPrefix(t, suitePrefix):
			name, _, _ := strings.Cut(strings.TrimPrefix(t, suitePrefix), " ")
			if strings.Count(name, "/") == 1 {
				s.running = append(s.running, name)
			}
		case inRunning && t == "":
			inRunning = false
		}
	}
	// Seen per list: a frame of a loop may also be where another goroutine
	// blocks.
	seen := map[string]bool{}
	for _, g := range stacks.Parse(strings.Join(lines[at+1:], "\n")) {
		list := &s.loops
		if stacks.Blocks(g.Header) {
			list = &s.frames
		}
		for _, f := range stacks.Frames(g, gradedPkg) {
			key := fmt.Sprint(list == &s.frames, f)
			if !seen[key] && len(*list) < 8 {
				seen[key] = true
				*list = append(*list, f)
			}
		}
	}
	return s, true
}

// lines says the report's problems for a timed-out run; limit says which
// limit that was (runSpec.limitNote), "" where it is not known.
func (s stuckReport) lines(limit string) []string {
	first := fmt.Sprintf("the suite's time ran out after %s", s.after)
	if limit != "" {
		first += ", " + limit
	}
	out := []string{first}
	if len(s.running) > 0 {
		out = append(out, "still running then: "+strings.Join(s.running, ", "))
	}
	switch {
	case len(s.frames) > 0:
		out = append(out, "the graded code those goroutines were in (a call that never returns?): "+strings.Join(s.frames, "; "))
	case len(s.loops) > 0:
		out = append(out, "no goroutine of the graded code was blocked on a lock or channel; it was in "+strings.Join(s.loops, "; ")+
			" (waiting in a loop: the tests may need more time than the limit, or wait for an answer this code never gives)")
	default:
		out = append(out, "no goroutine was inside the graded code: it may wait on something the graded code never answered")
	}
	return out
}
