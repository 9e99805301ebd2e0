package main

import (
	"errors"
	"strings"
	"testing"
)

// handoutFiles are this repository's files as the handout carries them:
// selected and edited for students, as build does.
func handoutFiles(t *testing.T) []file {
	t.Helper()
	files, err := trackedFiles(repoRootT(t), "")
	if err != nil {
		t.Fatal(err)
	}
	kept, _, err := selectFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	kept, err = forStudents(kept)
	if err != nil {
		t.Fatal(err)
	}
	return kept
}

// TestHandoutOperationsNamesTheStudentsDefault (a new user's trial): the
// handout's docs/operations.md said --impl assignment runs the students'
// Service "instead of the reference, the default", in a tree without the
// reference, whose mwzk-server runs the students' Service by default.
func TestHandoutOperationsNamesTheStudentsDefault(t *testing.T) {
	for _, f := range handoutFiles(t) {
		if f.path != "docs/operations.md" {
			continue
		}
		text := string(f.data)
		if strings.Contains(text, "instead of the reference") || !strings.Contains(text, "It runs your Service, `assignments/aufgabe5`: without `--impl`") {
			t.Errorf("the handout's docs/operations.md does not say the students' Service is the default:\n%s", text[:min(len(text), 1500)])
		}
		return
	}
	t.Fatal("the handout has no docs/operations.md")
}

// TestStudentEditOfAChangedDocFails: an edit whose sentence the doc no
// longer has stops the build instead of shipping the instructors' text.
func TestStudentEditOfAChangedDocFails(t *testing.T) {
	_, err := forStudents([]file{{path: "docs/operations.md", data: []byte("reworded\n")}})
	if !errors.Is(err, errStudentEdit) || !strings.Contains(err.Error(), "docs/operations.md") {
		t.Errorf("forStudents of a reworded doc: %v, want errStudentEdit naming docs/operations.md", err)
	}
}
