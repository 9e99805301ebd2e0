package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestGraderFilesOfAHandoutSkipScratch: in a tree that is no git checkout
// (an unpacked handout), the grader's files are every file but the
// skipped folders': make test's .testtmp, where builds come and go while
// other tests grade, never goes into a grading copy.
func TestGraderFilesOfAHandoutSkipScratch(t *testing.T) {
	root := scratchCheckout(t, "go.mod", "assignments/aufgabe5/service.go", ".testtmp/go-build1/b001/_testmain.go", "grades/alice/grade.json", "bin/mwzk-server")
	files, err := graderFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"assignments/aufgabe5/service.go", "go.mod"}; !slices.Equal(files, want) {
		t.Errorf("graderFiles = %q, want %q", files, want)
	}
}

// TestHandInsInTheCheckoutAreNotTheGraders: a batch's hand-ins and
// reports inside the grader's checkout (the README's SUBMISSIONS=hand-ins)
// neither go into a grading copy nor count in the grader's hash: one
// changed hand-in made an instructor's whole class be graded again.
func TestHandInsInTheCheckoutAreNotTheGraders(t *testing.T) {
	root := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(root))
	write := func(f, data string) {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module zablab\n")
	write("mwzookeeper/conformance/suite.go", "package conformance\n")
	write("hand-ins/bob/assignments/aufgabe5/service.go", "package aufgabe5\n")
	write("out2/bob/report.txt", "x")
	leave := []string{filepath.Join(root, "hand-ins"), filepath.Join(root, "out2"), filepath.Join(root, ".."), ""}
	files, err := graderFiles(root, leave...)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"go.mod", "mwzookeeper/conformance/suite.go"}; !slices.Equal(files, want) {
		t.Errorf("graderFiles = %q, want %q", files, want)
	}
	before, err := graderTreeHash(root, "", leave...)
	if err != nil {
		t.Fatal(err)
	}
	write("hand-ins/bob/assignments/aufgabe5/service.go", "package aufgabe5 // fixed\n")
	write("hand-ins/carol/assignments/aufgabe5/service.go", "package aufgabe5\n")
	if after, _ := graderTreeHash(root, "", leave...); after != before {
		t.Error("a changed or new hand-in changed the grader's hash")
	}
	write("mwzookeeper/conformance/suite.go", "package conformance // changed\n")
	if after, _ := graderTreeHash(root, "", leave...); after == before {
		t.Error("a changed suite kept the grader's hash")
	}
}

// TestHandInsWhereGoLooks: a hand-ins folder inside the checkout is one
// the go command's ./... compiles (make test would run students' tests
// unconfined), unless a folder on its way starts with _ or . or is
// testdata.
func TestHandInsWhereGoLooks(t *testing.T) {
	root := t.TempDir()
	for dir, want := range map[string]bool{
		"hand-ins": true, "courses/ws24": true, "_hand-ins": false, "x/_old/ws24": false,
		"testdata/class": false, ".grading/class": false, "../elsewhere": false, ".": false,
	} {
		if _, got := seenByGoTool(root, filepath.Join(root, dir)); got != want {
			t.Errorf("seenByGoTool(%s) = %v, want %v", dir, got, want)
		}
	}
}

// scratchCheckout writes the files (slash paths) into a fresh folder that
// is no git repository (make test's temp folder lies inside the checkout,
// whose git would answer for it) and returns it.
func scratchCheckout(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(root)) // no repository above root either
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
