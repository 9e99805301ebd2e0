package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckCodeRefusesAsGradingDoes: make grade-a5.N's check names an
// import that make grade would refuse, with its file and line, and passes
// code that grading takes.
func TestCheckCodeRefusesAsGradingDoes(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "assignments", "aufgabe5")
	os.MkdirAll(dir, 0o755)
	ok := "package aufgabe5\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n"
	os.WriteFile(filepath.Join(dir, "service.go"), []byte(ok), 0o644)
	if err := checkCheckout(root, options{impl: "assignment"}, io.Discard); err != nil {
		t.Fatalf("code grading takes: %v", err)
	}
	bad := "package aufgabe5\n\nimport \"os\"\n\nvar _ = os.Getpid\n"
	os.WriteFile(filepath.Join(dir, "debug.go"), []byte(bad), 0o644)
	err := checkCheckout(root, options{impl: "assignment"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), `assignments/aufgabe5/debug.go:3: import "os" is not allowed`) {
		t.Fatalf("an import of os: %v, want a refusal naming debug.go:3", err)
	}
}
