package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestOneRunWithoutManifestKeepsTheOthersFailures: with --repeat 2, run 1
// runs every test (one fails) and run 2 ends before its manifest (out of
// memory at its start, say). Tests did run, so the report must still list
// run 1's failing test. When one "run 2: " problem ending in noManifest
// was enough, make grade, report.html and the gradebook's note said that
// no test ran at all and hid the failure (a review's failing test).
func TestOneRunWithoutManifestKeepsTheOthersFailures(t *testing.T) {
	const name = "A5.1/Session"
	r1 := &run{
		manifest: []manifestTest{{Part: "A5.1", Name: "Session", Points: 3}},
		sealed:   map[string]sealedResult{name: {status: "fail", count: 1}},
		tests:    map[string]*outcome{name: {status: "fail", lines: []string{"    session.go:12: wrong zxid in the reply"}}},
	}
	r2 := &run{tests: map[string]*outcome{}, sealed: map[string]sealedResult{}}
	r1.finish(context.Background(), "")
	r2.finish(context.Background(), "")
	rep := &Report{Status: "graded", Repeat: 2}
	score(rep, []*run{r1, r2}, "")

	var out bytes.Buffer
	printFailures(&out, rep)
	if !strings.Contains(out.String(), "wrong zxid in the reply") {
		t.Errorf("make grade hides run 1's failing test:\n%s\nproblems: %q", out.String(), rep.Problems)
	}
	if b := reportHTML(t, rep); !strings.Contains(b, "wrong zxid in the reply") {
		t.Errorf("report.html hides run 1's failing test (it says: %q)", firstLineWith(b, "No test ran"))
	}
	if n := reportNote(rep); strings.Contains(n, "never started") {
		t.Errorf("gradebook note %q: but run 1 ran every test", n)
	}
}

func firstLineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
