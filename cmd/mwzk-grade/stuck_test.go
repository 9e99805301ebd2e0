package main

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testdata/gotimeout.txt is what a suite binary printed when its
// -test.timeout stopped a Start that never returns.
func TestFindStuckNamesTheTestsAndTheGradedCode(t *testing.T) {
	b, err := os.ReadFile("testdata/gotimeout.txt")
	if err != nil {
		t.Fatal(err)
	}
	s, ok := findStuck(strings.Split(string(b), "\n"))
	if !ok {
		t.Fatal("Go's timeout report not found")
	}
	want := stuckReport{after: "2s", running: []string{"A5.1/Session"}, frames: []string{"(*Service).Start (service.go:4)"}}
	if diff := cmp.Diff(want, s, cmp.AllowUnexported(stuckReport{})); diff != "" {
		t.Errorf("findStuck (-want +got):\n%s", diff)
	}
	if _, ok := findStuck([]string{"FAIL", "exit status 1"}); ok {
		t.Error("a plain failure was taken for a timeout")
	}
}

// TestFindStuckTellsALoopFromABlock: the same report with the graded
// goroutine in a select with cases (a healthy background loop, while a
// test waits for a session to time out) names no "call that never
// returns", and the gradebook's note does not say "stuck in".
func TestFindStuckTellsALoopFromABlock(t *testing.T) {
	b, err := os.ReadFile("testdata/gotimeout.txt")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), "goroutine 20 [select (no cases)]:", "goroutine 20 [select, 1 minutes]:", 1)
	s, ok := findStuck(strings.Split(text, "\n"))
	if !ok || len(s.frames) != 0 || !slices.Equal(s.loops, []string{"(*Service).Start (service.go:4)"}) {
		t.Fatalf("findStuck: %+v, %v; want the Start frame as a loop, not as blocked", s, ok)
	}
	r := &Report{Status: "timeout", Problems: s.lines("")}
	if n := reportNote(r); strings.Contains(n, "stuck in") {
		t.Errorf("gradebook note %q for code that waited in a select loop", n)
	}
}

func TestSuiteTimeoutComesBeforeTheGradersDeadline(t *testing.T) {
	for _, left := range []time.Duration{20 * time.Second, 3 * time.Minute, 15 * time.Minute} {
		got := suiteTimeout(left)
		if got >= left || got < left*8/10 {
			t.Errorf("suiteTimeout(%v) = %v: want a little less than %v", left, got, left)
		}
	}
}
