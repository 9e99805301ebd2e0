package main

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// TestStuckRunSaysWhichLimitCutIt: with REPEAT=2 and a hand-in whose
// Start never returns, run 1 stopped "after 1m0s" and run 2 "after
// 53.19s" for the same --timeout 1m: run 2 had only what the compile and
// run 1 left of the submission's 2m. Each run's report now says which
// limit stopped it.
func TestStuckRunSaysWhichLimitCutIt(t *testing.T) {
	b, err := os.ReadFile("testdata/gotimeout.txt") // a suite stopped "after 2s"
	if err != nil {
		t.Fatal(err)
	}
	own := time.Minute
	for _, c := range []struct {
		spec runSpec
		want string
	}{
		{runSpec{timeout: own, run: 0, runs: 2}, "the suite's time ran out after 2s, the run's own limit (--timeout 1m0s)"},
		{runSpec{timeout: 53190 * time.Millisecond, run: 1, runs: 2}, "the suite's time ran out after 2s, all that was left of the submission's time " +
			"(2m0s: 2 runs of --timeout 1m0s) when this run began, less a margin for Go's timeout report: the compile and the runs before it took the rest"},
		{runSpec{timeout: 53190 * time.Millisecond, run: 0, runs: 1}, "the suite's time ran out after 2s, all that was left of the submission's time " +
			"(1m0s) when this run began, less a margin for Go's timeout report: the compile took the rest"},
	} {
		r := &run{other: strings.Split(string(b), "\n"), exitErr: errors.New("exit status 2"), timedOut: true, limit: c.spec.limitNote(own)}
		if got := otherProblems(r); len(got) == 0 || got[0] != c.want {
			t.Errorf("run %d of %d with -test.timeout %v: the report says %q; want %q", c.spec.run+1, c.spec.runs, c.spec.timeout, got, c.want)
		}
	}
}
