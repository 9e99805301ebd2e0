package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A student's own test in the checkout's assignments/aufgabe5 (the sheet
// invites them) is no file of the grader: it once went into every grading
// copy, so that TestMissingSuiteFileIsNamed failed in a student's make
// test (the copy without the grader's test file still had a test), and a
// self-grade compiled the student's tests into the suite.
func TestStudentsOwnTestsAreNoGraderFiles(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"go.mod", gradedDir + "service.go", gradedDir + graderTestFile,
		gradedDir + "my_test.go", gradedDir + "sub/helper_test.go", "zab/zab_test.go"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := graderFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(files, gradedDir+"my_test.go") {
		t.Errorf("the student's %smy_test.go is among the grader's files: %q", gradedDir, files)
	}
	for _, want := range []string{gradedDir + graderTestFile, gradedDir + "sub/helper_test.go", "zab/zab_test.go", "go.mod"} {
		if !slices.Contains(files, want) {
			t.Errorf("%s is missing from the grader's files: %q", want, files)
		}
	}
}
