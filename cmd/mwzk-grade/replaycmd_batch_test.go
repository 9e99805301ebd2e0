package main

import "testing"

// TestReplayCommandOfABatchOrAReplayNamesTheHandIn: make grade-all and
// mwzk-grade --replay load a hand-in themselves, with --submission empty;
// both gave the suite MWZK_GRADE_REPLAY="make grade", so a failing test of
// hand-in ada printed a replay command that grades the checkout's own
// assignments/aufgabe5, not ada's code. gradeItem and replay() now take
// their options from forHandIn.
func TestReplayCommandOfABatchOrAReplayNamesTheHandIn(t *testing.T) {
	batch := options{impl: "assignment", submissions: "hand-ins"}.forHandIn("hand-ins/ada.tar.gz", "")
	if got, want := batch.replayCommand(), "make grade SUBMISSION=hand-ins/ada.tar.gz"; got != want {
		t.Errorf("grade-all: replay command %q, want %q", got, want)
	}
	rep := options{impl: "assignment", replay: "grades/ada/grade.json"}.forHandIn("repos/ada", "v1")
	if got, want := rep.replayCommand(), "make grade SUBMISSION=repos/ada REF=v1"; got != want {
		t.Errorf("mwzk-grade --replay of hand-in ada: replay command %q, want %q", got, want)
	}
}
