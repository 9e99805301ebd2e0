package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// maxFileLines is the project's bar for a file of the grader: one concept
// per file, and a file that outgrows it is split by concept.
const maxFileLines = 600

// TestGraderFilesStaySmall: no Go file of the grader grows past
// maxFileLines (batch.go reached 601 with the gradebook in it).
func TestGraderFilesStaySmall(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files here (%v)", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte("\n")); n > maxFileLines {
			t.Errorf("%s has %d lines, more than %d: split it by concept", f, n, maxFileLines)
		}
	}
}
