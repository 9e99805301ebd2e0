package main

import (
	"slices"
	"testing"
)

// TestReferenceHandedInIsNamed: a hand-in whose graded files were the
// reference solution's byte for byte earned its full points with no word
// that the code came from the instructors' tree (a leaked copy, or the
// instructor's own test hand-in mixed into the class folder). Its report
// and gradebook note now say so; a hand-in that changed one byte, or the
// stubs, do not get that note.
func TestReferenceHandedInIsNamed(t *testing.T) {
	root := testRoot(t, true)
	ref := folderFiles(t, root, refFolder)
	for _, c := range []struct {
		name    string
		files   map[string]string
		changed bool
	}{
		{"the reference", ref, false},
		{"the reference with one comment added", ref, true},
		{"the stubs", folderFiles(t, root, gradedDir), true},
	} {
		notes := handInNotes(t, c.files, c.changed && c.name != "the stubs")
		if got := slices.Contains(notes, referenceCopy); got == c.changed {
			t.Errorf("%s handed in: notes %q; the reference's note there: %v, want %v", c.name, notes, got, !c.changed)
		}
	}
	if n := reportNote(&Report{Status: "graded", Notes: []string{referenceCopy}}); n != referenceCopy {
		t.Errorf("the gradebook note of a graded hand-in of the reference is %q, want %q", n, referenceCopy)
	}
}
