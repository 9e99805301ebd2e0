package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingCCIsNoCompileErrorOfTheHandIn: grading runs under the race
// detector by default, which on Linux needs cgo, a C compiler and the
// static C library on the grader's machine. Where the C compiler is
// missing (CC pointing nowhere stands for a machine without gcc), the
// build failed for the machine's reason and was recorded as the hand-in's
// compile error (0 points), which make grade-all then kept as up to date
// (a review's test). It is the grader's error now: no status of the
// hand-in's, and the batch's "error", graded again next time.
func TestMissingCCIsNoCompileErrorOfTheHandIn(t *testing.T) {
	root := testRoot(t, false)
	sub := stubsSubmission(t, root) // the untouched stubs compile
	o := withDefaults(options{race: true})
	t.Setenv("CC", "/nonexistent/gcc")
	rep, err := gradeSubmission(context.Background(), root, o, sub, testLog{t})
	if rep == nil {
		t.Fatalf("gradeSubmission: no report (%v)", err)
	}
	if !errors.Is(err, errToolchain) || !strings.Contains(err.Error(), "RACE=0") || rep.Status != "" {
		t.Fatalf("a grader machine without a C compiler: status %q, error %v; want no status and %v saying RACE=0; compiler lines:\n%s",
			rep.Status, err, errToolchain, strings.Join(rep.Compile, "\n"))
	}
	rep.Status = "error" // as gradeItem records a grading without a status
	out := filepath.Join(t.TempDir(), "alice")
	if err := writeReports(out, rep); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CC", "") // gcc installed: the next make grade-all
	if _, ok := upToDate(root, o, out, sub); ok {
		t.Errorf("make grade-all keeps the grade of a run without a C compiler (status %s) as up to date", rep.Status)
	}
}

// TestHandInsQuoteIsNoToolchainFault: only the tools' own lines can blame
// the machine. A hand-in's compile error quoting "cannot find -lc" passed
// for the grader's fault: no compile error recorded, graded again forever.
func TestHandInsQuoteIsNoToolchainFault(t *testing.T) {
	for msg, want := range map[string]string{
		"# zablab/assignments/aufgabe5\nhandin/x.go:3:28: cannot use \"cannot find -lc\" (untyped string constant) as int value": "",
		"handin/x.go:3:2: undefined: y\n\thave (\"cannot find -lc\")":                                                            "",
		"# runtime/cgo\ncgo: C compiler \"/nonexistent/gcc\" not found: exec: no such file":                                      "cgo: C compiler \"/nonexistent/gcc\" not found",
		"link: running gcc failed: exit status 1\n/usr/bin/ld: cannot find -lc: No such file or directory":                       "/usr/bin/ld: cannot find -lc:",
	} {
		if got := toolchainFault(msg); got != want {
			t.Errorf("toolchainFault(%q) = %q, want %q", msg, got, want)
		}
	}
}
