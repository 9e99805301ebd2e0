package main

import (
	"context"
	"fmt"
	"html"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAgainLineGradesTheSameWay (an instructor's trial): a report's
// "This hand-in again, here" command named the hand-in and part only. For
// a class graded at REF=abgabe it graded the repository's HEAD (other
// code: 30/30 for a hand-in graded 0/30), and it dropped REPEAT, EXTRA
// and TIMEOUT. It now names each that was given, and the commit graded.
func TestAgainLineGradesTheSameWay(t *testing.T) {
	const commit = "bd9c0dd4dc2caa896f26e00801c1380299e71670"
	for _, c := range []struct {
		rep  Report
		want string
	}{
		{Report{Origin: "/tmp/class/fred", Ref: commit, Part: "A5.1", Repeat: 5, Extra: "grading/extra-example", Timeout: "2m0s"},
			"This hand-in again, here: make grade SUBMISSION=/tmp/class/fred REF=" + commit + " PART=A5.1 REPEAT=5 EXTRA=grading/extra-example TIMEOUT=2m0s RACE=0\n"},
		{Report{Origin: "/tmp/class/bob", Repeat: 1, Timeout: "15m0s"},
			"This hand-in again, here: make grade SUBMISSION=/tmp/class/bob RACE=0\n"},
		// Full marks (a README trial: the line was missing there).
		{Report{Origin: "/tmp/class/carl", Repeat: 1, Timeout: "15m0s", Parts: []PartGrade{{ID: "A5.1", Tests: []TestGrade{{Name: "Session", Points: 2, Runs: 1, Passes: 1, Status: "pass"}}}}},
			"This hand-in again, here: make grade SUBMISSION=/tmp/class/carl RACE=0\n"},
	} {
		rep := c.rep
		rep.Submission, rep.Status = "x", "graded"
		if rep.Parts == nil {
			rep.Parts = []PartGrade{{ID: "A5.1", Tests: []TestGrade{{Name: "Session", Points: 2, Runs: 1, Status: "fail"}}}}
		}
		var b strings.Builder
		printReport(&b, &rep)
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("report lacks %q:\n%s", c.want, b.String())
		}
		// report.html says it too (a trial: only report.txt and the console did).
		text := strings.NewReplacer("<code>", "", "</code>", "").Replace(reportHTML(t, &rep))
		if want := html.EscapeString(strings.TrimSpace(c.want)); !strings.Contains(text, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
}

// TestReplayTakesTheRecordedTimeout (an instructor's trial): --replay
// took the recorded part, runs and seeds but not the time per run, so a
// hand-in that timed out at TIMEOUT=2m got 15 minutes in its replay (and
// one that finishes within them came out differently). A --timeout given
// still wins.
func TestReplayTakesTheRecordedTimeout(t *testing.T) {
	g := recordedGrade(t, Report{Status: "timeout", Repeat: 3, Timeout: "1ms"})
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "grading did not finish within 3ms"},
		{[]string{"--timeout", "2ms"}, "grading did not finish within 6ms"},
	} {
		var log strings.Builder
		mainErr(context.Background(), append([]string{"--replay", g}, c.args...), &log)
		if !strings.Contains(log.String(), c.want) {
			t.Errorf("replay of a grade recorded with 3 runs of 1ms, flags %q: output lacks %q:\n%s", c.args, c.want, log.String())
		}
	}
}

// recordedGrade writes a hand-in of the stubs' service.go alone and a
// grade.json of it as rec says, for a replay; it returns the grade.json.
func recordedGrade(t *testing.T, rec Report) string {
	t.Helper()
	testRoot(t, false)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{gradedDir + "service.go": "package aufgabe5\n"})
	sub, err := loadSubmission(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	rec.Submission, rec.Origin, rec.SHA256 = "x", dir, sub.sha256()
	g := filepath.Join(t.TempDir(), "grade.json")
	if err := writeJSON(&rec, g); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestAgainLineForEveryHandInReport (a new user's trial): a hand-in that
// does not compile got a report without the "This hand-in again, here"
// line, which README.md promises in each report.txt; so did a refused one
// and one that never started a test (its compile or its suite's start
// ran out of time). A variant's report
// names no hand-in, and a grade of the checkout has none to name.
func TestAgainLineForEveryHandInReport(t *testing.T) {
	const want = "This hand-in again, here: make grade SUBMISSION=/tmp/class/dora PART=A5.1 RACE=0\n"
	for _, rep := range []Report{
		{Status: "compile-error", Compile: []string{"service.go:3:1: syntax error"}},
		{Status: "refused", Problems: []string{`entry "../x" has a .. path element`}},
		{Status: "timeout", Problems: []string{noCompile}},
		{Status: "error", Problems: []string{"run 1: " + noManifest},
			Parts: []PartGrade{{ID: "A5.1", Tests: []TestGrade{{Name: "Session", Points: 2, Status: "not started"}}}}},
	} {
		rep.Submission, rep.Origin, rep.Part, rep.Repeat = "dora", "/tmp/class/dora", "A5.1", 1
		var b strings.Builder
		printReport(&b, &rep)
		if !strings.Contains(b.String(), want) {
			t.Errorf("%s report lacks %q:\n%s", rep.Status, want, b.String())
		}
		rep.Origin = ""
		b.Reset()
		printReport(&b, &rep)
		if strings.Contains(b.String(), "This hand-in again") {
			t.Errorf("%s report of the checkout names a hand-in:\n%s", rep.Status, b.String())
		}
	}
}

// TestAgainLineOfAnUnreadableEntry (a new user's trial): in a class graded
// with PART=A5.2 TIMEOUT=5m, a stray notes.txt's refused report said
// "make grade SUBMISSION=…/notes.txt PART=A5.2", without the TIMEOUT that
// every other report of the batch names (and it would drop EXTRA too): the
// report of an entry that could not be read recorded neither.
func TestAgainLineOfAnUnreadableEntry(t *testing.T) {
	root := testRoot(t, false)
	extra := filepath.Join(root, "grading", "extra-example")
	o := withDefaults(options{part: "A5.2", repeat: 1, timeout: 5 * time.Minute, extra: extra})
	rep := refusedReport(root, o, &batchItem{name: "notes.txt", path: "/tmp/class/notes.txt"},
		fmt.Errorf("%w: submission /tmp/class/notes.txt: not an archive", errRefused))
	got := againCommand(rep)
	for _, want := range []string{" PART=A5.2", " TIMEOUT=5m0s", " EXTRA=" + makeWord(extra)} {
		if !strings.Contains(got, want) {
			t.Errorf("the refused entry's again command lacks %q: %s", want, got)
		}
	}
}
