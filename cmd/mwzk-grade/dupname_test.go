package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSameNameTwiceGradesBoth (a new user's trial): carol.zip beside a
// folder carol/ stopped the whole class's grading before anyone was
// graded ("both name submission carol"), although README.md promises that
// an odd entry is a row of the gradebook, never the end of the batch. Both
// are graded now, the later one under its whole entry name.
func TestSameNameTwiceGradesBoth(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "carol"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "carol.zip"), []byte("PK"), 0o644); err != nil {
		t.Fatal(err)
	}
	items, _, err := listSubmissions(dir)
	if err != nil {
		t.Fatalf("carol/ beside carol.zip: %v; want both listed", err)
	}
	var names []string
	for _, it := range items {
		names = append(names, it.name)
	}
	if len(names) != 2 || names[0] == names[1] {
		t.Errorf("carol/ beside carol.zip listed as %q; want two rows with different names", names)
	}
}
