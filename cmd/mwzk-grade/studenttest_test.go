package main

import (
	"slices"
	"testing"
)

// A student's own test in the checkout's assignments/aufgabe5 (the sheet
// invites them) is no file of the grader: it once went into every grading
// copy, so that TestMissingSuiteFileIsNamed failed in a student's make
// test (the copy without the grader's test file still had a test), and a
// self-grade compiled the student's tests into the suite.
func TestStudentsOwnTestsAreNoGraderFiles(t *testing.T) {
	root := scratchCheckout(t, "go.mod", gradedDir+"service.go", gradedDir+graderTestFile,
		gradedDir+"my_test.go", gradedDir+"sub/helper_test.go", "zab/zab_test.go")
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
