package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// graderHistory makes a grader root whose git history gave rel these
// versions: "plain" (a commit of its own), "merged" (only a merge's
// resolution had it, so no plain diff shows it) and "now" (the file as it
// is). It returns the root.
func graderHistory(t *testing.T, rel string) string {
	t.Helper()
	root := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(root))
	git := gitIn(t, root)
	put := func(content string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755)
		if err := os.WriteFile(filepath.Join(root, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", "-A")
	}
	git("init", "-q", "-b", "main")
	put("package conformance // plain\n")
	git("commit", "-q", "-m", "plain")
	git("checkout", "-q", "-b", "side")
	put("package conformance // side\n")
	git("commit", "-q", "-m", "side")
	git("checkout", "-q", "main")
	put("package conformance // main\n")
	git("commit", "-q", "-m", "main")
	// The merge conflicts, which is the point: its resolution is "merged".
	if out, err := exec.Command("git", "-C", root, "merge", "-q", "--no-commit", "side").CombinedOutput(); err == nil {
		t.Fatalf("the merge did not conflict:\n%s", out)
	}
	put("package conformance // merged\n")
	git("commit", "-q", "-m", "merge")
	put("package conformance // now\n")
	git("commit", "-q", "-m", "now")
	return root
}

// TestOlderHandoutsGraderFilesAreIgnored: a whole checkout of an older
// handout carries the grader's files as they were then; those are earlier
// versions from the grader's history (also one only a merge brought), not
// changed copies: the hand-in is graded, the file listed first as
// ignored, once. A copy changed beyond any version is still refused.
func TestOlderHandoutsGraderFilesAreIgnored(t *testing.T) {
	stubsRoot := testRoot(t, false)
	const rel = "mwzookeeper/conformance/a51_tree.go"
	root := graderHistory(t, rel)
	for _, c := range []struct {
		name, content string
		refused       bool
	}{
		{"plain", "package conformance // plain\n", false},
		{"merged", "package conformance // merged\n", false},
		{"changed", "package conformance // a student's\n", true},
	} {
		sub, err := withGraderFile(t, stubsRoot, root, rel, c.content)
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

// withGraderFile checks, against the grader at root, a hand-in of the
// stubs (from stubsRoot) that also carries content at rel, a path of the
// grader's files (checkForeign).
func withGraderFile(t *testing.T, stubsRoot, root, rel, content string) (*submission, error) {
	t.Helper()
	dir := t.TempDir()
	files := inFolder("", folderFiles(t, stubsRoot, "assignments/aufgabe5"))
	files[rel] = content
	writeTree(t, dir, files)
	sub, err := loadSubmission(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return sub, sub.checkForeign(root)
}
