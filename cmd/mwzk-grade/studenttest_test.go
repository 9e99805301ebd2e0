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
	// A subfolder of the graded folder is the student's too: a hand-in's
	// grading leaves it out, so a self-grade must not compile with it.
	for _, own := range []string{gradedDir + "my_test.go", gradedDir + "sub/helper_test.go"} {
		if slices.Contains(files, own) {
			t.Errorf("the student's %s is among the grader's files: %q", own, files)
		}
	}
	for _, want := range []string{gradedDir + graderTestFile, "zab/zab_test.go", "go.mod"} {
		if !slices.Contains(files, want) {
			t.Errorf("%s is missing from the grader's files: %q", want, files)
		}
	}
}

// TestSelfGradeNamesSubfolderFiles: a self-grade leaves out the Go files in
// subfolders of assignments/aufgabe5 as a hand-in's grading does, and its
// report lists them, so a student learns it before handing in.
func TestSelfGradeNamesSubfolderFiles(t *testing.T) {
	root := scratchCheckout(t, "go.mod", gradedDir+"service.go", gradedDir+"util/util.go")
	sub, err := checkoutSubmission(root, options{impl: "assignment"})
	if err != nil {
		t.Fatal(err)
	}
	want := gradedDir + "util/util.go: in a subfolder of " + gradedDir
	if !slices.Contains(sub.Ignored, want) {
		t.Errorf("the self-grade's ignored files are %q, want %q among them", sub.Ignored, want)
	}
	files, err := graderFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(files, gradedDir+"util/util.go") {
		t.Errorf("%sutil/util.go goes into the grading copy: %q", gradedDir, files)
	}
}
