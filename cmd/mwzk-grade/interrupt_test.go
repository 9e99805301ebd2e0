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

	"zablab/internal/wait"
)

// TestInterruptedBatchRecordsNothing: a batch stopped (Ctrl-C) while a
// hand-in is graded records nothing for it: its last grade stays, in its
// folder and in the gradebook, which is written all the same with the
// grades of the hand-ins the batch did not reach.
func TestInterruptedBatchRecordsNothing(t *testing.T) {
	root := testRoot(t, false)
	needSandbox(t, "the batch grades in the sandbox")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	class, out := filepath.Join(t.TempDir(), "class"), filepath.Join(t.TempDir(), "out")
	stubs := inFolder("", folderFiles(t, root, "assignments/aufgabe5"))
	writeTree(t, filepath.Join(class, "a-hang"), hangingHandIn(inFolder("", folderFiles(t, root, "assignments/aufgabe5"))))
	writeTree(t, filepath.Join(class, "b-later"), stubs)
	writeTree(t, filepath.Join(class, "c-new"), stubs) // never graded before
	// Grades of an earlier batch, with made-up points to recognise them;
	// a-hang's has a failure picture, which grading a hand-in replaces.
	page := filepath.Join("pictures", "A5.1_TestX", "failure.html")
	// b-later's is of its files now; a-hang's of other files.
	sub, err := loadSubmission(filepath.Join(class, "b-later"), "")
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{"a-hang": "0123", "b-later": sub.sha256()}
	for name, earned := range map[string]int{"a-hang": 17, "b-later": 23} {
		old := &Report{Submission: name, Status: "graded", Required: Score{earned, 100}, Repeat: 1, SHA256: sums[name], Part: "A5.1",
			Parts: []PartGrade{{ID: "A5.1", Score: Score{earned, 100}, Tests: []TestGrade{{Name: "TestX", Status: "fail", Pictures: []string{page}}}}}}
		if err := writeReports(filepath.Join(out, name), old); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(out, "a-hang", filepath.Dir(page)), 0o755)
	if err := os.WriteFile(filepath.Join(out, "a-hang", page), []byte("<html>the earlier failure</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Interrupt once the hanging hand-in's suite runs.
		wait.For(t, "the suite of a-hang running", 3*time.Minute, func() bool { return suiteRunsIn(tmp) })
		cancel()
	}()
	o := options{impl: "assignment", submissions: class, out: out, jobs: 1, repeat: 1, part: "A5.1", timeout: 5 * time.Minute}
	var log bytes.Buffer
	err = gradeBatch(ctx, root, o, &log)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted batch returned %v, want context.Canceled\n%s", err, log.String())
	}
	if want := "a-hang: interrupted: not recorded"; !strings.Contains(log.String(), want) {
		t.Errorf("the batch's output lacks %q:\n%s", want, log.String())
	}
	if want := "2 row(s) hold the grade of an earlier batch (their note says so), 1 hand-in(s) have none yet (c-new)"; strings.Contains(log.String(), "] b-later") || !strings.Contains(log.String(), want) {
		t.Errorf("b-later was graded after the interrupt, or the output lacks %q:\n%s", want, log.String())
	}
	if r, err := readJSON(filepath.Join(out, "a-hang", "grade.json")); err != nil || r.Status != "graded" || r.Required.Earned != 17 {
		t.Errorf("a-hang's grade.json after the interrupt: %+v, %v; want the earlier grade (graded, 17)", r, err)
	}
	book := readGradebook(t, filepath.Join(out, "gradebook.csv"))
	for name, want := range map[string]string{"a-hang": "17", "b-later": "23"} {
		if row := book[name]; row == nil || row[1] != "graded" || row[2] != want || !strings.HasPrefix(row[len(row)-1], "from an earlier batch") {
			t.Errorf("%s: gradebook row %q, want the earlier grade %s, noted as such", name, row, want)
		}
	}
	// An instructor could not tell the rows of changed hand-ins.
	if note := book["a-hang"][len(book["a-hang"])-1]; !strings.Contains(note, "of files that changed since") {
		t.Errorf("a-hang, changed since its grade: note %q, want it to say so", note)
	}
	if note := book["b-later"][len(book["b-later"])-1]; strings.Contains(note, "changed") {
		t.Errorf("b-later, unchanged since its grade: note %q says changed", note)
	}
	if row := book["c-new"]; row == nil || row[1] != "not graded" {
		t.Errorf("c-new, never graded: gradebook row %q, want one saying not graded", row)
	}
	if _, err := os.Stat(filepath.Join(out, "a-hang", page)); err != nil {
		t.Errorf("the kept grade of a-hang links to %s, which the interrupted run removed: %v", page, err)
	}
	wait.For(t, "the interrupted run's processes gone", 30*time.Second, func() bool { return !suiteRunsIn(tmp) })
	checkNothingLeft(t, tmp)
}

// suiteRunsIn says whether a suite runs from a grading copy under tmp.
func suiteRunsIn(tmp string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		// The suite binary, with its -test.timeout; not the compile's
		// wrapper, which is the grader's own binary (this test's, here).
		if err == nil && bytes.Contains(b, []byte(tmp)) && bytes.Contains(b, []byte("-test.timeout")) &&
			!bytes.Contains(b, []byte("__mwzk-grade-limit")) {
			return true
		}
	}
	return false
}

// TestRaisedTimeoutGradesATimeoutAgain: a timeout is not kept as up to
// date once the time per run changed.
func TestRaisedTimeoutGradesATimeoutAgain(t *testing.T) {
	root := testRoot(t, false)
	sub, out := stubsSubmission(t, root), t.TempDir()
	o := withDefaults(options{timeout: 6 * time.Second})
	tree, err := graderTreeHash(root, "", o.leave()...)
	if err != nil {
		t.Fatal(err)
	}
	old := &Report{Status: "timeout", SHA256: sub.sha256(), GraderTree: tree, Repeat: 1, Timeout: "6s"}
	if err := writeJSON(old, filepath.Join(out, "grade.json")); err != nil {
		t.Fatal(err)
	}
	if _, ok := upToDate(root, o, out, sub); !ok {
		t.Fatalf("a timeout graded with the same time per run is not up to date")
	}
	o.timeout = 5 * time.Minute
	if _, ok := upToDate(root, o, out, sub); ok {
		t.Errorf("a timeout graded with 6s counts as up to date with TIMEOUT=5m")
	}
}
