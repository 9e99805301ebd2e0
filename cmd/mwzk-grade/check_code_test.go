package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zablab/internal/procs"
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

// TestRunNamesATestOfThePart: make grade-a5.N RUN=... with a name of no
// test of the part is refused, suggesting the right one; go test would
// run nothing and pass.
func TestRunNamesATestOfThePart(t *testing.T) {
	for _, c := range []struct{ run, want string }{
		{"FirstNode", ""},
		{"firstnode", "did you mean FirstNode?"},
		{"A5.1/FirstNode", "did you mean FirstNode?"},
		{"Sync", "did you mean Sync, a test of A5.2 (make grade-a5.2 RUN=Sync)?"},
		{"Nope", "A5.1 has no test of that name; its tests: Session, FirstNode"},
	} {
		err := checkTestName("A5.1", c.run)
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("RUN=%s: %v, want %q", c.run, err, c.want)
		}
	}
}

// TestMakeGradeRefusesRun: make grade grades whole parts; a RUN= given to
// it was ignored, and the whole suite ran instead of one test.
func TestMakeGradeRefusesRun(t *testing.T) {
	root := testRoot(t, false)
	cmd := exec.Command("make", "-s", "grade", "RUN=Session")
	cmd.Dir = root
	out, err := procs.Run(cmd, time.Minute)
	if err == nil || !strings.Contains(string(out), "make grade-a5.1 RUN=Session") {
		t.Fatalf("make grade RUN=Session: %v\n%s\nwant a refusal pointing at make grade-a5.N", err, out)
	}
}
