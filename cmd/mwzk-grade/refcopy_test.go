package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
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
		dir := t.TempDir()
		files := map[string]string{}
		for n, data := range c.files {
			files[gradedDir+n] = data
		}
		if c.changed && c.name != "the stubs" {
			files[gradedDir+"service.go"] += "\n// mine\n"
		}
		writeTree(t, dir, files)
		g := filepath.Join(t.TempDir(), "grade.json")
		var log strings.Builder
		mainErr(context.Background(), []string{"--submission", dir, "--timeout", "1ms", "--json", g}, &log)
		rep, err := readJSON(g)
		if err != nil {
			t.Fatalf("%s: no grade.json (%v); output:\n%s", c.name, err, log.String())
		}
		if got := slices.Contains(rep.Notes, referenceCopy); got == c.changed {
			t.Errorf("%s handed in: notes %q; the reference's note there: %v, want %v", c.name, rep.Notes, got, !c.changed)
		}
	}
	if n := reportNote(&Report{Status: "graded", Notes: []string{referenceCopy}}); n != referenceCopy {
		t.Errorf("the gradebook note of a graded hand-in of the reference is %q, want %q", n, referenceCopy)
	}
}
