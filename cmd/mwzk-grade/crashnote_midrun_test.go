package main

import (
	"strings"
	"testing"
)

// A hand-in whose code panicked in the middle of the suite earns nothing
// for every test after the crash; the gradebook's note (and the batch's
// progress line, which shares it) says so, with the test and the panic,
// where it said nothing. The report is shaped as grade.json recorded it for
// a hand-in whose applyOp panicked in A5.1/TreeOperations.
func TestMidRunPanicHasANote(t *testing.T) {
	crash := "panic: dave: delete is not done yet, in (*Service).applyOp (apply.go:114) ← (*Service).applyRequest (apply.go:80)"
	r := &Report{Status: "graded", Repeat: 1, Problems: []string{
		"no signed result (did not finish): A5.1/ErrorCodes, A5.1/TreeOperations, A5.2/SameState",
		"panic: dave: delete is not done yet",
	}, Parts: []PartGrade{
		{ID: "A5.1", Tests: []TestGrade{
			{Name: "Session", Status: "pass"},
			{Name: "TreeOperations", Status: "not finished", FailedRun: 1, Failure: []string{crashedWhile + crash}},
			{Name: "ErrorCodes", Status: "not started"},
		}},
		{ID: "A5.2", Tests: []TestGrade{{Name: "SameState", Status: "not started"}}},
	}}
	want := "the suite crashed in A5.1/TreeOperations (2 tests after it not started): " + crash
	if n := reportNote(r); n != want {
		t.Errorf("gradebook note of a run that crashed mid-suite:\n%q\nwant\n%q", n, want)
	}
	r.Repeat = 2
	if n := reportNote(r); !strings.HasPrefix(n, "the suite crashed in A5.1/TreeOperations in run 1 (2 tests") {
		t.Errorf("gradebook note of a crash in one of two runs: %q; want it to name the run", n)
	}
	// A test that failed on its own is no crash.
	r.Parts[0].Tests[1].Failure = []string{"expected 2 children, got 1"}
	if n := reportNote(r); n != "" {
		t.Errorf("gradebook note of an ordinary failure: %q, want none", n)
	}
}
