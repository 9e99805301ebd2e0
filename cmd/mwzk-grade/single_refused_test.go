package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestSingleUnreadableHandInReplacesTheGradeFile (a new user's trial):
// make grade SUBMISSION=notes.txt PART=A5.2 refused the entry, exited 1
// and left grade-A5.2.json as the last grading had written it, another
// hand-in's "graded" result, although README.md says a single grading
// writes that file over the last one (a hand-in refused for its imports
// does). A script reading the file after the run read a grade of other code.
func TestSingleUnreadableHandInReplacesTheGradeFile(t *testing.T) {
	testRoot(t, false)
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	file := filepath.Join(dir, "grade-A5.2.json")
	if err := os.WriteFile(notes, []byte("not a hand-in\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stale := &Report{Submission: "alice", Status: "graded", Part: "A5.2", Repeat: 1}
	if err := writeJSON(stale, file); err != nil {
		t.Fatal(err)
	}
	err := mainErr(context.Background(), []string{"--submission", notes, "--part", "A5.2", "--json", file}, io.Discard)
	if err == nil {
		t.Fatal("notes.txt was graded, not refused")
	}
	rep, rerr := readJSON(file)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if rep.Submission != "notes.txt" || rep.Status != "refused" {
		t.Errorf("%s after refusing notes.txt holds %s's %q grade, want notes.txt's refusal", file, rep.Submission, rep.Status)
	}
}
