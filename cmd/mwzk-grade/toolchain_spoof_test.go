package main

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestHandInCompileErrorQuotingALinkerLineIsStillItsCompileError: the
// race build's failure is taken as the grader machine's (errToolchain: no
// status, "error" in the batch, graded again next time) when any line of
// the compiler's output matches toolchainLine. The compiler quotes the
// hand-in's own text in its messages, so a hand-in whose compile error
// quotes a string "cannot find -lfoo" is never recorded as a compile error
// (review rev25c).
func TestHandInCompileErrorQuotingALinkerLineIsStillItsCompileError(t *testing.T) {
	root := testRoot(t, false)
	files := inFolder("", folderFiles(t, root, "assignments/aufgabe5"))
	files[gradedDir+"spoof.go"] = "package aufgabe5\n\nfunc spoof() int { return \"cannot find -lfoo\" }\n"
	dir := t.TempDir()
	writeTree(t, dir, files)
	sub, err := loadSubmission(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	o := withDefaults(options{part: "A5.1", race: true}) // make grade's default now
	rep, err := gradeSubmission(context.Background(), root, o, sub, testLog{t})
	if errors.Is(err, errToolchain) || rep == nil || rep.Status != "compile-error" {
		status := "<no report>"
		if rep != nil {
			status = rep.Status
		}
		t.Fatalf("a hand-in that does not compile (its own string quoted in the error): status %q, error %v; want status compile-error, not %v",
			status, err, errToolchain)
	}
	if !strings.Contains(strings.Join(rep.Compile, "\n"), "spoof.go") {
		t.Errorf("the compile error does not name spoof.go: %q", rep.Compile)
	}
}
