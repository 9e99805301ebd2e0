package main

import (
	"context"
	"encoding/json"
	"os"
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
		dir := t.TempDir()
		files := map[string]string{}
		for n, data := range stubs {
			files[gradedDir+n] = data
		}
		if c.changed {
			files[gradedDir+"service.go"] += "\n// mine\n"
		}
		writeTree(t, dir, files)
		g := filepath.Join(t.TempDir(), "grade.json")
		var log strings.Builder
		mainErr(context.Background(), []string{"--submission", dir, "--timeout", "1ms", "--json", g}, &log)
		var rep Report
		b, err := os.ReadFile(g)
		if err == nil {
			err = json.Unmarshal(b, &rep)
		}
		if err != nil {
			t.Fatalf("%s: no grade.json (%v); output:\n%s", c.name, err, log.String())
		}
		if got := slices.Contains(rep.Problems, stubsUnchanged); got == c.changed {
			t.Errorf("%s hand-in: problems %q; the stubs' note there: %v, want %v", c.name, rep.Problems, got, !c.changed)
		}
	}
}

// TestStubsNoteInGradebook: a graded hand-in of the stubs has the note in
// its gradebook row, where an instructor reads a class.
func TestStubsNoteInGradebook(t *testing.T) {
	r := &Report{Status: "graded", Problems: []string{stubsUnchanged}}
	if n := reportNote(r); n != stubsUnchanged {
		t.Errorf("the note of a graded hand-in of the stubs is %q, want %q", n, stubsUnchanged)
	}
}
