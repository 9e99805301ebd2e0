package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// gitRepo makes dir a git repository with files committed.
func gitRepo(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	writeTree(t, dir, files)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "hand-in"}} {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// TestBigGitBlobIsRefusedWhileStreaming: a blob over the size limit is
// refused from its tar header, before its bytes are read into memory
// (git archive's output was read whole first: a 2 GiB blob took 8.4 GB).
func TestBigGitBlobIsRefusedWhileStreaming(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "carol")
	const big = 64 << 20
	gitRepo(t, dir, map[string]string{gradedDir + "a.go": "package aufgabe5\n", "big.bin": strings.Repeat("\x00", big)})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := loadSubmission(dir, "")
	runtime.ReadMemStats(&after)
	if !errors.Is(err, errRefused) || !strings.Contains(err.Error(), `"big.bin" has 67108864 bytes`) || !strings.Contains(err.Error(), dir) {
		t.Errorf("loading a repository with a 64 MiB blob: %v, want it refused, naming the blob", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > big/4 {
		t.Errorf("loading allocated %d bytes: the blob (%d bytes) was read before its refusal", got, big)
	}
}

// TestGitArchiveFailureIsNamed: a git archive that fails halfway (a blob
// is missing) names the submission and says what git said, not only that
// the tar stream broke off.
func TestGitArchiveFailureIsNamed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dave")
	gitRepo(t, dir, map[string]string{gradedDir + "a.go": "package aufgabe5\n", gradedDir + "b.go": "package aufgabe5 // b\n"})
	blob, err := gitOut(dir, "rev-parse", "HEAD:"+gradedDir+"b.go")
	if err != nil {
		t.Fatal(err)
	}
	blob = strings.TrimSpace(blob)
	if err := os.Remove(filepath.Join(dir, ".git", "objects", blob[:2], blob[2:])); err != nil {
		t.Fatal(err)
	}
	commit, err := gitCommit(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = gitEntries(dir, commit)
	if err == nil || !strings.Contains(err.Error(), "git archive") || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), blob) {
		t.Errorf("git archive with a missing blob: %v, want git's error naming %s and the blob", err, dir)
	}
}
