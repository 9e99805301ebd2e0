package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStubsHandedInAreNamed (an instructor's trial): a hand-in of the
// stubs, unchanged, got 0 points with no word why, like a real attempt
// that fails every test; an instructor could not tell a wrong commit or
// folder from nothing done. Its report and gradebook note now say so, and
// a hand-in that changed one byte does not get that note.
func TestStubsHandedInAreNamed(t *testing.T) {
	root := testRoot(t, false)
	stubs := folderFiles(t, root, gradedDir)
	for _, c := range []struct {
		name    string
		changed bool
	}{{"unchanged", false}, {"one comment added", true}} {
		notes := handInNotes(t, stubs, c.changed)
		if got := slices.Contains(notes, stubsUnchanged); got == c.changed {
			t.Errorf("%s hand-in: notes %q; the stubs' note there: %v, want %v", c.name, notes, got, !c.changed)
		}
	}
}

// handInGrade grades a hand-in of files (names in the graded folder),
// with a comment added to service.go if changed, for 1 ms (the notes do
// not wait for the tests), and returns its grade and the grader's output.
func handInGrade(t *testing.T, files map[string]string, changed bool) (*Report, string) {
	t.Helper()
	tree := map[string]string{}
	for n, data := range files {
		tree[gradedDir+n] = data
	}
	if changed {
		tree[gradedDir+"service.go"] += "\n// mine\n"
	}
	dir := t.TempDir()
	writeTree(t, dir, tree)
	g := filepath.Join(t.TempDir(), "grade.json")
	var log strings.Builder
	mainErr(context.Background(), []string{"--submission", dir, "--timeout", "1ms", "--json", g}, &log)
	rep, err := readJSON(g)
	if err != nil {
		t.Fatalf("no grade.json (%v); output:\n%s", err, log.String())
	}
	return rep, log.String()
}

// handInNotes is handInGrade's notes.
func handInNotes(t *testing.T, files map[string]string, changed bool) []string {
	t.Helper()
	rep, _ := handInGrade(t, files, changed)
	return rep.Notes
}

// TestStubsNoteInGradebook: a graded hand-in of the stubs has the note in
// its gradebook row, where an instructor reads a class; so does one whose
// grade.json an older grader wrote, with the note among the problems.
func TestStubsNoteInGradebook(t *testing.T) {
	for _, r := range []*Report{
		{Status: "graded", Notes: []string{stubsUnchanged}},
		{Status: "graded", Problems: []string{stubsUnchanged}},
	} {
		if n := reportNote(r); n != stubsUnchanged {
			t.Errorf("the note of a graded hand-in of the stubs (notes %q, problems %q) is %q, want %q", r.Notes, r.Problems, n, stubsUnchanged)
		}
	}
}

// TestStubsNoteHasItsOwnHeading: the stubs' note was printed under
// "Problems outside the tests (panics, timeouts, the result channel)" in
// report.txt and report.html, which it is not: it is about what was handed
// in. It has a field (notes) and a heading of its own; problems keeps the
// runs' problems, and the gradebook's note still says it.
func TestStubsNoteHasItsOwnHeading(t *testing.T) {
	root := testRoot(t, false)
	rep, txt := handInGrade(t, folderFiles(t, root, gradedDir), false)
	if len(rep.Problems) == 0 {
		t.Fatalf("a 1ms grading has no problems (the test needs that heading to be there): %+v", rep)
	}
	if slices.Contains(rep.Problems, stubsUnchanged) || !slices.Contains(rep.Notes, stubsUnchanged) {
		t.Errorf("grade.json: problems %q, notes %q; want the stubs' note in notes only", rep.Problems, rep.Notes)
	}
	if p := section(txt, "\nProblems outside the tests"); strings.Contains(p, stubsUnchanged) {
		t.Errorf("report.txt lists the stubs' note among the problems outside the tests:\n%s", p)
	}
	if n := section(txt, "\n"+notesHeading); !strings.Contains(n, stubsUnchanged) {
		t.Errorf("report.txt has no %q section with the stubs' note; output:\n%s", notesHeading, txt)
	}
	html := reportHTML(t, rep)
	if p := section(html, "<h2>Problems outside the tests</h2>"); strings.Contains(p, stubsUnchanged) {
		t.Errorf("report.html lists the stubs' note among the problems outside the tests:\n%s", p)
	}
	if n := section(html, "<h2>"+notesHeading+"</h2>"); !strings.Contains(n, stubsUnchanged) {
		t.Errorf("report.html has no %q section with the stubs' note:\n%s", notesHeading, html)
	}
}

// section is the text of s after heading up to the next blank line
// (report.txt) or the next heading (report.html); "" without the heading.
func section(s, heading string) string {
	_, after, ok := strings.Cut(s, heading)
	if !ok {
		return ""
	}
	if i := strings.Index(after, "\n\n"); i >= 0 {
		after = after[:i]
	}
	if i := strings.Index(after, "<h2>"); i >= 0 {
		after = after[:i]
	}
	return after
}
