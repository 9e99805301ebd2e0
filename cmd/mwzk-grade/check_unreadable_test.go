package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckCodeSyntaxErrorNotCompiles: a file with a syntax error
// (mid-edit) is neither refused nor "compiles": --check-code must not
// claim it compiles.
func TestCheckCodeSyntaxErrorNotCompiles(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "assignments", "aufgabe5")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "service.go"), []byte("package aufgabe5\n\nfunc broken( {\n"), 0o644)
	var out bytes.Buffer
	err := checkCheckout(root, options{impl: "assignment"}, &out)
	if strings.Contains(out.String(), "yet it compiles") {
		t.Errorf("a file with a syntax error: err %v, output %q: says it compiles", err, out.String())
	}
}

// TestCheckCodeUnreadableButCompilingPasses: a file go/parser cannot
// read but the compiler leaves out (//go:build ignore) is refused by
// make grade (refuseUnchecked), yet --check-code, run by make
// grade-a5.N, passes it.
func TestCheckCodeUnreadableButCompilingPasses(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "assignments", "aufgabe5")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "service.go"), []byte("package aufgabe5\n\nvar X = 1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "scratch.go"), []byte("//go:build ignore\n\npackage aufgabe5\n\nfunc old( {\n"), 0o644)
	var out bytes.Buffer
	if err := checkCheckout(root, options{impl: "assignment"}, &out); err == nil {
		t.Errorf("--check-code passes (output %q) a folder make grade refuses: its unreadable file compiles (the build leaves it out) and refuseUnchecked refuses it", out.String())
	}
}

// TestCheckCodeAgreesWithGrade: the same folder (the stubs and a
// scratch file left out of the build by //go:build ignore, mid-edit) is
// refused by make grade but passed by make grade-a5.N's --check-code.
func TestCheckCodeAgreesWithGrade(t *testing.T) {
	root := testRoot(t, false)
	files := inFolder("", folderFiles(t, root, "assignments/aufgabe5"))
	files[gradedDir+"scratch.go"] = "//go:build ignore\n\npackage aufgabe5\n\nfunc old( {\n"
	dir := t.TempDir()
	writeTree(t, dir, files)
	rep := gradeFolder(t, root, dir, options{part: "A5.1"})
	checkErr := checkCheckout(dir, options{impl: "assignment"}, &bytes.Buffer{})
	if (rep.Status == "refused") != (checkErr != nil) {
		t.Errorf("make grade: status %s (%q); --check-code: %v", rep.Status, rep.Problems, checkErr)
	}
}
