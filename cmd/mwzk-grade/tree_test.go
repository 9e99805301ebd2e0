package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestGraderFilesOfAHandoutSkipScratch: in a tree that is no git checkout
// (an unpacked handout), the grader's files are every file but the
// skipped folders': make test's .testtmp, where builds come and go while
// other tests grade, never goes into a grading copy.
func TestGraderFilesOfAHandoutSkipScratch(t *testing.T) {
	root := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(root)) // no repository above root either
	for _, f := range []string{"go.mod", "assignments/aufgabe5/service.go", ".testtmp/go-build1/b001/_testmain.go", "grades/alice/grade.json", "bin/mwzk-server"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := graderFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"assignments/aufgabe5/service.go", "go.mod"}; !slices.Equal(files, want) {
		t.Errorf("graderFiles = %q, want %q", files, want)
	}
}
