package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestReplayCommandOfABatchOrAReplayNamesTheHandIn: make grade-all and
// mwzk-grade --replay load a hand-in themselves, with --submission empty;
// both gave the suite MWZK_GRADE_REPLAY="make grade", so a failing test of
// hand-in ada printed a replay command that grades the checkout's own
// assignments/aufgabe5, not ada's code. gradeItem and replay() now take
// their options from forHandIn.
func TestReplayCommandOfABatchOrAReplayNamesTheHandIn(t *testing.T) {
	batch := options{impl: "assignment", submissions: "hand-ins"}.forHandIn("hand-ins/ada.tar.gz", "")
	if got, want := batch.replayCommand(), "make grade SUBMISSION=hand-ins/ada.tar.gz RACE=0"; got != want {
		t.Errorf("grade-all: replay command %q, want %q", got, want)
	}
	rep := options{impl: "assignment", replay: "grades/ada/grade.json"}.forHandIn("repos/ada", "v1")
	if got, want := rep.replayCommand(), "make grade SUBMISSION=repos/ada REF=v1 RACE=0"; got != want {
		t.Errorf("mwzk-grade --replay of hand-in ada: replay command %q, want %q", got, want)
	}
}

// TestReplayCommandRunsAsIs: the replay command a failing test prints,
// pasted into a shell, reaches mwzk-grade with the hand-in's path as one
// argument: a course platform names folders "Dave Miller_1234_…" (make
// grade split it: "unexpected argument"), keeps apostrophes, and keeps a
// student's "$", which make expands on its command line.
func TestReplayCommandRunsAsIs(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatalf("make is not on PATH; the replay command is a make command: %v", err)
	}
	for _, path := range []string{"hand-ins/Dave O'Miller_1234_assignsubmission_file_", "hand-ins/Dave_1234_$ubmission v2.zip"} {
		o := options{impl: "assignment"}.forHandIn(path, "")
		cmd := o.replayCommand()
		out, err := exec.Command("sh", "-c", "cd "+shellWord(root)+" && "+strings.Replace(cmd, "make grade", "make -n grade", 1)).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, out)
		}
		line := firstLineWith(string(out), "--submission")
		args, err := exec.Command("sh", "-c", "printf '%s\\n' "+strings.TrimPrefix(line, "go run ./cmd/mwzk-grade")).Output()
		if err != nil {
			t.Fatalf("the make line %q: %v", line, err)
		}
		if !strings.Contains(string(args), "\n"+path+"\n") {
			t.Errorf("%s passes mwzk-grade these arguments, one per line:\n%s\nwant %q as one", cmd, args, path)
		}
	}
}
