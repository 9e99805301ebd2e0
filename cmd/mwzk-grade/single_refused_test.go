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
	// alice's page of a history that was not linearizable, beside her grade.
	page := filepath.Join(dir, "grade-A5.2-pictures", "run1", "history.html")
	if err := os.MkdirAll(filepath.Dir(page), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, []byte("<html>alice</html>"), 0o644); err != nil {
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
	// A refused hand-in has no pictures: the folder beside its grade must
	// not show the last hand-in's as if they were its own.
	if _, err := os.Stat(page); err == nil {
		t.Errorf("%s, the last grading's picture, is still beside notes.txt's refusal", page)
	}
}

// TestRefusedClassHandInLeavesNoOldPictures: in a class's grading, a
// hand-in graded before (with pages of its failing histories) and
// replaced by a file that is refused kept OUT/<name>/pictures, the old
// code's pages beside the new refusal.
func TestRefusedClassHandInLeavesNoOldPictures(t *testing.T) {
	root, o, _ := brokenHandIn(t, map[string]string{"hand-ins/anna.txt": "not a hand-in\n"})
	it := &batchItem{name: "anna", path: filepath.Join(root, "hand-ins", "anna.txt")}
	page := filepath.Join(o.out, "anna", "pictures", "history.html")
	if err := os.MkdirAll(filepath.Dir(page), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, []byte("<html>anna's last hand-in</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, _ := gradeItem(context.Background(), root, o, it)
	if rep == nil || rep.Status != "refused" {
		t.Fatalf("anna.txt: %+v; want a refused report", rep)
	}
	if _, err := os.Stat(page); err == nil {
		t.Errorf("%s, the last hand-in's picture, is still beside anna.txt's refusal", page)
	}
}
