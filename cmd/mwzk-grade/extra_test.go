package main

import (
	"context"
	"path/filepath"
	"testing"
)

// TestHiddenTestsAreGradedWithTheirPart: the example hidden test is run
// with A5.1, adds its points to the part's, and is marked as hidden; the
// reference earns them.
func TestHiddenTestsAreGradedWithTheirPart(t *testing.T) {
	root := testRoot(t, true)
	o := withDefaults(options{impl: "solution", part: "A5.1", extra: filepath.Join(root, "grading", "extra-example")})
	sub, err := checkoutSubmission(root, o)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := gradeSubmission(context.Background(), root, o, sub, testLog{t})
	if err != nil {
		t.Fatalf("grade: %v", err)
	}
	a51 := rep.Parts[0]
	var hidden *TestGrade
	for i := range a51.Tests {
		if a51.Tests[i].Name == "HiddenRecreate" {
			hidden = &a51.Tests[i]
		}
	}
	if hidden == nil || !hidden.Extra || hidden.Status != "pass" || hidden.Earned != 3 {
		t.Fatalf("hidden test: %+v, want HiddenRecreate, extra, passed, 3 points", hidden)
	}
	if a51.Score.Possible != 33 || a51.Score.Earned != 33 {
		t.Fatalf("A5.1 %+v, want 33 of 33 with the hidden test's 3", a51.Score)
	}
}
