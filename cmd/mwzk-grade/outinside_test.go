package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReportsFolderInsideTheClassIsNoHandIn (a new user's trial): with
// OUT inside the hand-ins folder (make grade-all SUBMISSIONS=hand-ins
// OUT=hand-ins/grades) the first batch listed the class, but every later
// one listed the grader's own reports folder too, as a refused student
// "grades" with a row in the gradebook and reports in grades/grades/.
func TestReportsFolderInsideTheClassIsNoHandIn(t *testing.T) {
	root := testRoot(t, false)
	class := filepath.Join(t.TempDir(), "class")
	out := filepath.Join(class, "grades")
	// alice: refused at once (no assignments/aufgabe5), which is enough
	// for a gradebook line and needs no compiling.
	writeTree(t, filepath.Join(class, "alice"), map[string]string{"README": "no code\n"})
	o := options{impl: "assignment", submissions: class, out: out, jobs: 1, repeat: 1, part: "A5.1", timeout: 25 * time.Second}
	for run := 1; run <= 2; run++ {
		var log bytes.Buffer
		if err := gradeBatch(context.Background(), root, o, &log); err != nil {
			t.Fatalf("batch %d: %v\n%s", run, err, log.String())
		}
		book := readFile(t, filepath.Join(out, gradebookFile))
		if strings.Contains(book, "\ngrades,") || strings.Contains(log.String(), "] grades:") {
			t.Errorf("batch %d graded its own reports folder as a hand-in:\n%s\ngradebook:\n%s", run, log.String(), book)
		}
	}
}
