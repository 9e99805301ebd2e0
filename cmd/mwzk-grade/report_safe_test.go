package main

import (
	"strings"
	"testing"
)

// TestReportShowsControlCharactersAsEscapes: the graded code's text in a
// report (a compiler line, a problem, the progress line's note) reaches
// the instructor's terminal with its ESC sequences and bidi overrides
// shown, not acted on (a review's suspicion).
func TestReportShowsControlCharactersAsEscapes(t *testing.T) {
	rep := &Report{Submission: "eve", Status: "compile-error", Repeat: 1,
		Compile:  []string{"assignments/aufgabe5/x.go:1:1: \x1b[2J\x1b]0;owned\x07 \u202egnp.exe"},
		Problems: []string{"panic: \x1b[31mred\x1b[0m\tand a tab"}}
	var b strings.Builder
	printReport(&b, rep)
	out := b.String()
	if i := strings.IndexFunc(out, unsafeRune); i >= 0 {
		t.Fatalf("the report holds control character %U at byte %d:\n%q", []rune(out[i:])[0], i, out)
	}
	for _, want := range []string{`\x1b[2J`, `\x07`, `\u202e`, "\tand a tab"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report does not show %q:\n%s", want, out)
		}
	}
	it := &batchItem{name: "eve", rep: &Report{Status: "compile-error", Compile: rep.Compile}}
	if line := visible(progressLine(it)); strings.ContainsRune(line, 0x1b) {
		t.Errorf("the progress line holds ESC: %q", line)
	}
}

// TestHiddenTestHasNoReplayLine: report.html's replay line runs a test in
// the student's own checkout, where a hidden test does not exist ("ok
// ... [no tests to run]" in an instructor's trial): a hidden test says so
// instead.
func TestHiddenTestHasNoReplayLine(t *testing.T) {
	rep := &Report{Submission: "eve", Status: "graded", Repeat: 1, Parts: []PartGrade{{ID: "A5.1", Tests: []TestGrade{
		{Name: "TreeOperations", Points: 4, Runs: 1, Status: "fail"},
		{Name: "HiddenRecreate", Extra: true, Points: 3, Runs: 1, Status: "fail"},
	}}}}
	html := reportHTML(t, rep)
	if !strings.Contains(html, "RUN=TreeOperations") || strings.Contains(html, "RUN=HiddenRecreate") {
		t.Errorf("replay lines: want one for TreeOperations and none for the hidden test:\n%s", html)
	}
	if !strings.Contains(html, "hidden test: its code is the instructor") {
		t.Errorf("the hidden test does not say why it has no replay line")
	}
}

// TestTextReportHasReplayLines: report.txt and the terminal name, per
// failing test, the command that replays it with its seed, as report.html
// does (an instructor's trial found them only there); a hidden test gets
// none.
func TestTextReportHasReplayLines(t *testing.T) {
	rep := &Report{Submission: "eve", Status: "graded", Repeat: 1, Parts: []PartGrade{{ID: "A5.2", Tests: []TestGrade{
		{Name: "Linearizable", Points: 6, Runs: 1, Status: "fail", FailedRun: 1},
		{Name: "HiddenRecreate", Extra: true, Points: 3, Runs: 1, Status: "fail"},
	}}}, Seeds: []map[string]int64{{"A5.2/Linearizable": 42}}}
	var b strings.Builder
	printReport(&b, rep)
	if !strings.Contains(b.String(), "replay: MWZK_SEED=42 make grade-a5.2 RUN=Linearizable") || strings.Contains(b.String(), "RUN=HiddenRecreate") {
		t.Errorf("want a replay line with the seed for Linearizable and none for the hidden test:\n%s", b.String())
	}
}

// TestHandInReplayLinesSayWhere: a hand-in's replay lines run in its own
// checkout; in the grader's they would test the grader's stubs. The report
// says so on each line and names the command that grades it here.
func TestHandInReplayLinesSayWhere(t *testing.T) {
	rep := &Report{Submission: "bob", Origin: "/tmp/class/bob", Status: "graded", Repeat: 1, Part: "A5.1",
		Parts: []PartGrade{{ID: "A5.1", Tests: []TestGrade{{Name: "Session", Points: 2, Runs: 1, Status: "fail"}}}}}
	var b strings.Builder
	printReport(&b, rep)
	for _, want := range []string{"replay (in the hand-in's own checkout): make grade-a5.1 RUN=Session",
		"This hand-in again, here: make grade SUBMISSION=/tmp/class/bob PART=A5.1"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
