package main

import (
	"context"
	"os/exec"
	"testing"
	"time"
)

// TestForgedTimeoutReportIsNoTimeout: a timeout report that the graded
// code printed itself before panicking (exit status 2, as Go's own) is a
// crash, not a timeout: a red-team hand-in did it after 3 s, and
// grade.json said "timeout" with a test stuck for 14 minutes. Go's report
// counts when it names the run's -test.timeout and the run lasted that
// long.
func TestForgedTimeoutReportIsNoTimeout(t *testing.T) {
	exitErr := exec.Command("sh", "-c", "exit 2").Run()
	if exitErr == nil {
		t.Fatal("sh -c 'exit 2' succeeded")
	}
	report := func(after string) []string {
		return []string{"panic: test timed out after " + after, "running tests:",
			"\tTestConformance/A5.2/StateTransfer (14m40s)", ""}
	}
	for _, c := range []struct {
		name      string
		after     string
		goTimeout time.Duration
		took      time.Duration
		want      bool
	}{
		{"Go's own", "2m30s", 150 * time.Second, 150*time.Second + 20*time.Millisecond, true},
		{"hundredths, as the grader gives them", "53.19s", 53190 * time.Millisecond, 54 * time.Second, true},
		{"another figure", "14m45s", 15 * time.Minute, 15 * time.Minute, false},
		{"the right figure, too early", "14m45s", 885 * time.Second, 3 * time.Second, false},
		{"no figure", "soon", 885 * time.Second, 900 * time.Second, false},
	} {
		r := &run{other: report(c.after), exitErr: exitErr, goTimeout: c.goTimeout, took: c.took}
		r.finish(context.Background(), "A5.2")
		if r.timedOut != c.want {
			t.Errorf("%s: timed out %v, want %v", c.name, r.timedOut, c.want)
		}
	}
}
