package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// event is one line of go test -json (test2json).
type event struct {
	Action string
	Test   string
	Output string
}

// outcome is what one run says about one test.
type outcome struct {
	status string   // "pass", "fail", "skip", or "" when it never finished
	lines  []string // its output, its start only (maxTestOutput)
	kept   int64    // what lines holds, counted by keepTestLine
	cut    int64    // bytes of output not kept
}

// run is one run of the suite's test binary.
type run struct {
	tests    map[string]*outcome // go test's events, by "A5.2/ReadYourWrites"
	sealed   map[string]sealedResult
	pages    map[string]string // the pages the suite vouched for: path → sha256 (keepPages)
	manifest []manifestTest    // what the suite said it would run
	problems []string          // the result channel's complaints: unsigned, missing, extra results
	other    []string          // output not inside a test: panics, timeouts
	exitErr  error
	timedOut bool
	// goTimeout is the -test.timeout the binary was given, and took how
	// long the run took: Go's timeout report counts only when both agree
	// with it (goTimeoutHeld), for the graded code can print one.
	goTimeout, took time.Duration
	limit           string // which limit its -test.timeout was (runSpec.limitNote)
	memCap          int64  // the sandbox's memory cap (0: unconfined), for the report
	race            bool   // run under the race detector (runSpec.race)

	kept, otherKept int64 // output kept in tests and in other (capped.go)
	otherCut        int64 // bytes of other not kept
	droppedEvents   int   // events of test names past maxTests
}

// sealedResult is a signed result, and how many times it came.
type sealedResult struct {
	status string
	seed   int64
	count  int
}

// manifestTest is one test the suite announced.
type manifestTest struct {
	Part, Name string
	Points     int
	Extra      bool
}

// suitePrefix is the top-level test every conformance test runs under.
const suitePrefix = "TestConformance/"

// parseEvents reads go test -json output (from test2json) to its end,
// keeping a bounded part of the output (capped.go).
func parseEvents(rd io.Reader, r *run) {
	defer r.noteCuts()
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			r.keepOtherLine(sc.Text())
			continue
		}
		name, ok := strings.CutPrefix(e.Test, suitePrefix)
		if !ok || strings.Count(name, "/") != 1 {
			if e.Action == "output" && e.Test == "" {
				r.keepOtherLine(strings.TrimRight(e.Output, "\n"))
			}
			continue
		}
		o := r.tests[name]
		if o == nil {
			if len(r.tests) >= maxTests {
				r.droppedEvents++
				continue
			}
			o = &outcome{}
			r.tests[name] = o
		}
		switch e.Action {
		case "output":
			r.keepTestLine(o, strings.TrimRight(e.Output, "\n"))
		case "pass", "fail", "skip":
			o.status = e.Action
		}
	}
	if err := sc.Err(); err != nil {
		// Read on: test2json, and the binary behind it, must not block.
		n, _ := io.Copy(io.Discard, rd)
		r.other = append(r.other, fmt.Sprintf("go test's events: %v: the last %s were not read", err, byteSize(n)))
	}
}

// failureLines picks the lines of a test's output that say what broke:
// its log lines, without go test's own "=== RUN" and "--- FAIL" lines.
func failureLines(lines []string, max int) []string {
	var out []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
			continue
		}
		out = append(out, t)
		if len(out) == max {
			break
		}
	}
	return out
}

// errTimeout is a submission that did not finish in its time.
var errTimeout = context.DeadlineExceeded

// errRunTimeout is a submission whose time was not up, but a run's own
// -test.timeout stopped it: "grading did not finish within" the whole
// time was untrue there (it took 57 s of 1m0s).
var errRunTimeout = fmt.Errorf("%w: a run was stopped at its time limit", errTimeout)
