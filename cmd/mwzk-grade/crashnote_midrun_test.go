package main

import (
	"context"
	"os/exec"
	"testing"
)

// crashRuns builds runs of a three-test suite (A5.1/Session,
// A5.1/TreeOperations, A5.1/ErrorCodes). Each run's map gives a test's
// status: "pass" (signed), "fail" (signed), "crash" (running when the
// binary panicked) or absent (never started).
func crashRuns(t *testing.T, specs ...map[string]string) []*run {
	t.Helper()
	manifest := []manifestTest{{"A5.1", "Session", 3, false}, {"A5.1", "TreeOperations", 3, false}, {"A5.1", "ErrorCodes", 3, false}}
	var runs []*run
	for _, spec := range specs {
		r := &run{manifest: manifest, tests: map[string]*outcome{}, sealed: map[string]sealedResult{}}
		exit := "exit 0"
		for _, m := range manifest {
			name := m.Part + "/" + m.Name
			switch spec[m.Name] {
			case "pass":
				r.tests[name] = &outcome{status: "pass"}
				r.sealed[name] = sealedResult{status: "pass", count: 1}
			case "fail":
				r.tests[name] = &outcome{status: "fail", lines: []string{"    tree_test.go:40: expected 2 children, got 1"}}
				r.sealed[name] = sealedResult{status: "fail", count: 1}
				exit = "exit 1"
			case "crash":
				r.tests[name] = &outcome{lines: []string{"=== RUN   " + m.Name}}
				r.other = []string{"panic: dave: delete is not done yet", "", "goroutine 7 [running]:"}
				exit = "exit 2"
			}
		}
		if spec["init"] == "crash" {
			r.other = []string{"panic: boom in init"}
			exit = "exit 2"
		}
		if exit != "exit 0" {
			r.exitErr = exec.Command("sh", "-c", exit).Run()
		}
		r.finish(context.Background(), "")
		runs = append(runs, r)
	}
	return runs
}

// crashNoteOf is the gradebook note of the runs, graded with --repeat as
// many as there are.
func crashNoteOf(t *testing.T, runs []*run) string {
	t.Helper()
	rep := &Report{Status: "graded", Repeat: len(runs)}
	score(rep, runs, "")
	return reportNote(rep)
}

// A hand-in whose code panicked in the middle of the suite earns nothing for
// the tests the crash cut off; the gradebook's note (and the batch's
// progress line, which shares it) names the test, the count and the panic,
// where it said nothing (a new user's trial: a delete that panicked). The
// crash is found per run, so a run that crashed after another failed the
// same test on its own, or one of two runs crashing, is told too (a review).
func TestMidRunPanicHasANote(t *testing.T) {
	for _, c := range []struct {
		name string
		runs []map[string]string
		want string
	}{
		{"one run", []map[string]string{{"Session": "pass", "TreeOperations": "crash"}},
			"the suite crashed in A5.1/TreeOperations (1 test not started): panic: dave: delete is not done yet"},
		{"run 2 crashed where run 1 failed", []map[string]string{
			{"Session": "pass", "TreeOperations": "fail", "ErrorCodes": "pass"},
			{"Session": "pass", "TreeOperations": "crash"}},
			"the suite crashed in A5.1/TreeOperations in run 2 (1 test not started): panic: dave: delete is not done yet"},
		{"run 1 crashed, run 2 passed", []map[string]string{
			{"Session": "pass", "TreeOperations": "crash"},
			{"Session": "pass", "TreeOperations": "pass", "ErrorCodes": "pass"}},
			"the suite crashed in A5.1/TreeOperations in run 1 (1 test not started): panic: dave: delete is not done yet"},
		{"one of two runs never started", []map[string]string{
			{"init": "crash"},
			{"Session": "pass", "TreeOperations": "pass", "ErrorCodes": "pass"}},
			"the suite crashed before its first test in run 1 (3 tests not started): panic: boom in init"},
		// No test running at the crash (a goroutine a finished test left
		// behind): not "before its first test" (a review).
		{"between tests", []map[string]string{{"Session": "pass", "TreeOperations": "pass", "init": "crash"}},
			"the suite crashed between tests (1 test not started): panic: boom in init"},
		{"after the last test", []map[string]string{{"Session": "pass", "TreeOperations": "pass", "ErrorCodes": "pass", "init": "crash"}},
			"the suite crashed after its last test (0 tests not started): panic: boom in init"},
		{"an ordinary failure", []map[string]string{{"Session": "pass", "TreeOperations": "fail", "ErrorCodes": "pass"}}, ""},
	} {
		if got := crashNoteOf(t, crashRuns(t, c.runs...)); got != c.want {
			t.Errorf("%s: gradebook note\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}
