package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zablab/internal/procs"
)

// TestFmtCheckInAFreshGitRepo: a student who runs git init in the handout
// tracks nothing yet. fmt-check once listed files with git ls-files, got
// none, and ran gofmt -l without arguments, which reads standard input:
// make test hung at a terminal. It must end, and check files git does not
// track.
func TestFmtCheckInAFreshGitRepo(t *testing.T) {
	for _, tool := range []string{"make", "git", "gofmt"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: %v", tool, err)
		}
	}
	root := filepath.Join("..", "..")
	dir := t.TempDir()
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), mk, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := procs.Run(exec.Command("git", "-C", dir, "init", "-q"), 30*time.Second); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	src := filepath.Join(dir, "assignments", "aufgabe5", "mine.go")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	fmtCheck := func() (string, error) {
		r, w, err := os.Pipe() // standard input that stays open, as a terminal's does
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		defer w.Close()
		cmd := exec.Command("make", "-s", "fmt-check")
		cmd.Dir, cmd.Stdin = dir, r
		out, err := procs.Run(cmd, 30*time.Second)
		if errors.Is(err, procs.ErrDeadline) {
			t.Fatalf("make fmt-check still ran after 30 s in a fresh git repository (gofmt reading standard input?):\n%s", out)
		}
		return string(out), err
	}

	if err := os.WriteFile(src, []byte("package aufgabe5\nfunc  x() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := fmtCheck(); err == nil || !strings.Contains(out, "assignments/aufgabe5/mine.go") {
		t.Errorf("an untracked, unformatted file: err %v, output %q; want a failure naming it", err, out)
	}
	if err := os.WriteFile(src, []byte("package aufgabe5\n\nfunc x() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := fmtCheck(); err != nil {
		t.Errorf("formatted files: %v\n%s", err, out)
	}
}
