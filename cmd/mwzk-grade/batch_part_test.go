package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPartBatchKeepsTheClassGrades: a batch of one part into the folder
// of the class's whole grades is refused before it grades anything, and
// the grades stay; the same part again, and a part's own folder, are
// fine. A PART=A5.2 run had replaced every hand-in's full grade.json,
// report and seeds with A5.2's (an instructor's trial).
func TestPartBatchKeepsTheClassGrades(t *testing.T) {
	class, out := filepath.Join(t.TempDir(), "class"), filepath.Join(t.TempDir(), "grades")
	if err := os.MkdirAll(filepath.Join(class, "ben", "assignments", "aufgabe5"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(class, "ben", "assignments", "aufgabe5", "service.go"), []byte("package aufgabe5\n"), 0o644)
	full := filepath.Join(out, "ben", "grade.json")
	os.MkdirAll(filepath.Dir(full), 0o755)
	if err := writeJSON(&Report{Submission: "ben", Status: "graded"}, full); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(full)
	o := options{impl: "assignment", submissions: class, out: out, jobs: 1, repeat: 1, part: "A5.2", timeout: time.Minute}
	var log bytes.Buffer
	err := gradeBatch(context.Background(), t.TempDir(), o, &log)
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "holds grades of every part") || !strings.Contains(err.Error(), "OUT="+out+"-a5.2") {
		t.Fatalf("a PART=A5.2 batch into the class's grades: %v, want a refusal naming OUT=%s-a5.2\n%s", err, out, log.String())
	}
	if after, _ := os.ReadFile(full); !bytes.Equal(before, after) || log.Len() > 0 {
		t.Errorf("the refused batch changed %s or graded (%q)", full, log.String())
	}
	if err := otherPartsGrades(out, ""); err != nil {
		t.Errorf("the whole class again into its folder: %v", err)
	}
	if err := otherPartsGrades(out+"-a5.2", "A5.2"); err != nil {
		t.Errorf("a part into a folder of its own: %v", err)
	}
	writeJSON(&Report{Submission: "ben", Status: "graded", Part: "A5.2"}, full)
	if err := otherPartsGrades(out, ""); err == nil || !strings.Contains(err.Error(), "holds grades of A5.2") {
		t.Errorf("every part into a folder of A5.2's grades: %v", err)
	}
}
