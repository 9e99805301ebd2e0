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

// TestHandoutMentionsOnlyItsOwnDocs (a new user's trial): the handout's
// docs/zab.md and code comments (server/metrics.go, zab/snapshot.go,
// internal/gradeseal/doc.go, ...) sent students to docs/decisions.md and
// docs/performance.md, which only instructors have. Every docs/*.md the
// handout's files mention must be in it.
func TestHandoutMentionsOnlyItsOwnDocs(t *testing.T) {
	if m := missingDocs(handoutFiles(t)); len(m) > 0 {
		t.Errorf("the handout mentions docs it leaves out:\n  %s", strings.Join(m, "\n  "))
	}
}

// TestMissingDocsFindsMentions: a docs page named in a Go comment or in
// prose is found wherever it stands; a kept page, a longer path that only
// ends in docs/x.md, and a page's name without docs/ are not.
func TestMissingDocsFindsMentions(t *testing.T) {
	kept := []file{
		{path: "zab/snapshot.go", data: []byte("package zab\n\n// stalled writes (docs/performance.md). See docs/zab.md.\n")},
		{path: "docs/zab.md", data: []byte("# Zab\nfencing off (see docs/decisions.md)\nother/docs/x.md and decisions.md\n")},
	}
	got := missingDocs(kept)
	want := []string{"zab/snapshot.go:3: docs/performance.md", "docs/zab.md:2: docs/decisions.md"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("missingDocs = %q, want %q", got, want)
	}
}
