package main

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOlderHandoutsGraderFilesAreIgnored: a whole checkout of an older
// handout carries the grader's files as they were then; those are earlier
// versions from the grader's history, not changed copies: the hand-in is
// graded, the files listed as ignored. A copy changed beyond any version
// is still refused.
func TestOlderHandoutsGraderFilesAreIgnored(t *testing.T) {
	root := testRoot(t, false)
	const rel = "mwzookeeper/conformance/a51_tree.go"
	commits, err := gitOut(root, "log", "--format=%H", "--", rel)
	list := strings.Fields(commits)
	if err != nil || len(list) < 2 {
		t.Skipf("no earlier version of %s in this checkout's history (a shallow clone?): %v", rel, err)
	}
	older, err := gitOut(root, "show", list[1]+":"+rel)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, content string
		refused       bool
	}{{"older", older, false}, {"changed", older + "\n// a student's change\n", true}} {
		sub, err := withGraderFile(t, root, rel, c.content)
		if got := errors.Is(err, errRefused); got != c.refused {
			t.Errorf("%s copy of %s: refused %v (%v), want %v", c.name, filepath.Base(rel), got, err, c.refused)
		}
		ignored := len(sub.Ignored) > 0 && strings.HasPrefix(sub.Ignored[0], rel+": an earlier version")
		if ignored == c.refused {
			t.Errorf("%s copy: listed first as an earlier version %v, want %v (ignored: %q)", c.name, ignored, !c.refused, sub.Ignored)
		}
		if n := slices.IndexFunc(sub.Ignored, func(s string) bool { return strings.HasSuffix(s, rel+": outside "+gradedDir) }); !c.refused && n >= 0 {
			t.Errorf("%s copy: listed also as %q", c.name, sub.Ignored[n])
		}
	}
}

// withGraderFile checks a hand-in of the stubs that also carries content
// at rel, a path of the grader's files (checkForeign).
func withGraderFile(t *testing.T, root, rel, content string) (*submission, error) {
	t.Helper()
	dir := t.TempDir()
	files := inFolder("", folderFiles(t, root, "assignments/aufgabe5"))
	files[rel] = content
	writeTree(t, dir, files)
	sub, err := loadSubmission(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return sub, sub.checkForeign(root)
}
