package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"zablab/internal/procs"
)

// TestFmtCheckIgnoresHandInsInTheTree: the README grades a class with
// "make grade-all SUBMISSIONS=hand-ins", a folder in the instructor's tree.
// A hand-in is a student's whole tree (its own go.mod), formatted or not;
// it is not part of this module, go vet ./... skips it, and the
// instructor's make check / make test must not fail on a student's gofmt.
func TestFmtCheckIgnoresHandInsInTheTree(t *testing.T) {
	for _, tool := range []string{"make", "git", "gofmt"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: %v", tool, err)
		}
	}
	dir := t.TempDir()
	mk, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel, data string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Makefile", string(mk))
	write("go.mod", "module zablab\n\ngo 1.22\n")
	write("assignments/aufgabe5/mine.go", "package aufgabe5\n\nfunc x() {}\n")
	// a student's hand-in, unpacked as a folder: a module of its own
	write("hand-ins/alice/go.mod", "module zablab\n\ngo 1.22\n")
	write("hand-ins/alice/assignments/aufgabe5/mine.go", "package aufgabe5\nfunc  x() {}\n")
	if out, err := procs.Run(exec.Command("git", "-C", dir, "init", "-q"), 30*time.Second); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	cmd := exec.Command("make", "-s", "fmt-check")
	cmd.Dir = dir
	if out, err := procs.Run(cmd, 30*time.Second); err != nil {
		t.Errorf("make fmt-check in the instructor's tree fails on a hand-in that is not part of the module: %v\n%s", err, out)
	}
}
