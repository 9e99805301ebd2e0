package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestHandoutVets: the handout's files, as make handout packs them, pass
// go vet (which type-checks every test). A test file that used a helper of
// a file left out (one importing zablab/solutions) broke a student's make
// test; only make handout's check, minutes long and outside make test,
// noticed (server tests that started an ensemble without importing the
// reference themselves).
func TestHandoutVets(t *testing.T) {
	if testing.Short() {
		t.Skip("vets a copy of the handout: skipped with -short")
	}
	root := repoRootT(t)
	files, err := trackedFiles(root, "")
	if err != nil {
		t.Fatal(err)
	}
	kept, _, err := selectFiles(files)
	if err == nil {
		kept, err = forStudents(kept)
	}
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range kept {
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet ./... of the handout's files: %v\n%s", err, out)
	}
}
