package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A grade.json written before grade.json had "crash" (the grader at
// be3aae0) still reaches the gradebook: an interrupted batch's rows take
// the earlier batch's grade (lastGrades). Its crash was recorded only in
// the failure of the test it cut short; the note must still tell it, as it
// did before, rather than fall silent (or to the copy note).
func TestOlderGradeJSONKeepsItsCrashNote(t *testing.T) {
	const old = `{
  "submission": "dave",
  "status": "graded",
  "grader": "be3aae0",
  "grader_tree": "x",
  "go_version": "go1.22",
  "date": "2024-01-01T00:00:00Z",
  "seconds": 12,
  "repeat": 1,
  "required": {"earned": 3, "possible": 9},
  "bonus": {"earned": 0, "possible": 0},
  "parts": [
    {"id": "A5.1", "title": "", "optional": false, "score": {"earned": 3, "possible": 9}, "tests": [
      {"name": "Session", "points": 3, "earned": 3, "passes": 1, "runs": 1, "status": "pass"},
      {"name": "TreeOperations", "points": 3, "earned": 0, "passes": 0, "runs": 1, "status": "not finished", "failed_run": 1,
       "failure": ["the suite crashed while this test ran: panic: dave: delete is not done yet, in (*Service).applyOp (apply.go:114)"]},
      {"name": "ErrorCodes", "points": 3, "earned": 0, "passes": 0, "runs": 1, "status": "not started"}
    ]}
  ],
  "problems": [
    "no signed result (did not finish): A5.1/ErrorCodes, A5.1/TreeOperations",
    "panic: dave: delete is not done yet"
  ]
}
`
	dir := t.TempDir()
	file := filepath.Join(dir, "grade.json")
	if err := os.WriteFile(file, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := readJSON(file)
	if err != nil {
		t.Fatal(err)
	}
	n := reportNote(rep)
	if !strings.Contains(n, "crashed") || !strings.Contains(n, "A5.1/TreeOperations") {
		t.Errorf("gradebook note of an older grade.json whose suite crashed in A5.1/TreeOperations: %q; want it to tell the crash (be3aae0 said %q)",
			n, "the suite crashed in A5.1/TreeOperations (1 tests after it not started): panic: dave: ...")
	}
}
