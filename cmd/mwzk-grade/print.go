package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"zablab/mwzookeeper/conformance"
)

// printReport prints a grade: what was graded, why it was not (refused,
// does not compile) first, then points per part and each failing test
// with its first failure lines.
func printReport(w io.Writer, rep *Report) {
	w = safeWriter{w}
	runs := "1 run"
	if rep.Repeat > 1 {
		runs = fmt.Sprintf("%d runs; a test must pass in every run", rep.Repeat)
	}
	fmt.Fprintf(w, "\nMWZooKeeper grade of %s (%s)\n", rep.Submission, runs)
	switch rep.Status {
	case "refused":
		fmt.Fprintf(w, "\nREFUSED: nothing was run.\n")
		for _, p := range rep.Problems {
			for _, l := range strings.Split(p, "; ") {
				fmt.Fprintf(w, "    %s\n", l)
			}
		}
		printNotes(w, rep)
		printAgain(w, rep)
		return
	case "compile-error":
		fmt.Fprintf(w, "\nDOES NOT COMPILE: no test was run. The compiler says:\n")
		for _, l := range rep.Compile {
			fmt.Fprintf(w, "    %s\n", l)
		}
	case "timeout":
		fmt.Fprintf(w, "\nTIMEOUT: grading was stopped after its time; unfinished tests earn nothing.\n")
	}
	fmt.Fprintf(w, "\n  %-5s %9s   %s\n", "part", "points", "title")
	for _, p := range rep.Parts {
		fmt.Fprintf(w, "  %-5s %3d / %-3d   %s\n", p.ID, p.Score.Earned, p.Score.Possible, p.Title)
	}
	fmt.Fprintf(w, "\n  %s\n", totalsLine(rep))
	printNotes(w, rep)
	if rep.Status != "compile-error" {
		printFailures(w, rep)
	}
	printAgain(w, rep)
	if len(rep.Problems) > 0 {
		fmt.Fprintf(w, "\nProblems outside the tests (panics, timeouts, the result channel):\n")
		for _, l := range rep.Problems {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	if len(rep.Ignored) > 0 {
		fmt.Fprintf(w, "\nIgnored (only %s*.go is graded, with the grader's own tests): %d file(s)\n", rep.GradedDir(), len(rep.Ignored))
		for i, l := range rep.Ignored {
			if i == 10 {
				fmt.Fprintf(w, "    … and %d more (grade.json lists all)\n", len(rep.Ignored)-10)
				break
			}
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	fmt.Fprintf(w, "\nGraded files (%s) sha256 %s; grader %s; %s; started %s, took %.0f s\n", rep.GradedDir(), rep.SHA256, rep.Grader, rep.GoVersion, rep.Date, rep.Seconds)
	if rep.Ref != "" {
		fmt.Fprintf(w, "Git commit graded: %s (uncommitted changes in the repository are not graded)\n", rep.Ref)
	}
	if rep.Unconfined {
		fmt.Fprintln(w, "Graded without a sandbox: the code ran with the grader's rights.")
	}
	if rep.Race {
		fmt.Fprintln(w, "Graded under the race detector: a data race halts its run, and the tests it cut short earn nothing.")
	} else if rep.Variant == "" && !rep.NeverStarted() {
		fmt.Fprintln(w, "Graded without the race detector (RACE=0): a data race went unnoticed, and one can rewrite the suite's results.")
	}
}

func printFailures(w io.Writer, rep *Report) {
	if rep.NeverStarted() && len(rep.Compile) == 0 {
		fmt.Fprintf(w, "\nNo test ran (the problems below say why).\n")
		return
	}
	header := false
	var notStarted []string
	for _, p := range rep.Parts {
		for _, t := range p.Tests {
			if t.Status == "not started" {
				notStarted = append(notStarted, p.ID+"/"+t.Name)
			}
			if t.Status == "pass" || t.Status == "not started" {
				continue
			}
			if !header {
				fmt.Fprintf(w, "\nTests that earned no points:\n")
				header = true
			}
			hidden := ""
			if t.Extra {
				hidden = ", hidden test"
			}
			fmt.Fprintf(w, "\n  %s/%s (%s%s): %s", p.ID, t.Name, plural(t.Points, "point"), hidden, t.Status)
			if t.Runs > 1 {
				fmt.Fprintf(w, ", passed %d of %d runs", t.Passes, t.Runs)
			}
			fmt.Fprintln(w)
			for _, l := range t.Failure {
				fmt.Fprintf(w, "      %s\n", strings.TrimSpace(l))
			}
			for _, pic := range t.Pictures {
				fmt.Fprintf(w, "      picture of the failure (open it in a browser): %s\n", pic)
			}
			if !t.Extra { // a hidden test's code is not in the student's checkout
				fmt.Fprintf(w, "      replay%s: %s\n", replayWhere(rep), replayHint(rep, p.ID, t))
			}
		}
	}
	if len(notStarted) > 0 {
		why := "the time ran out, or the suite crashed"
		if rep.Race {
			why = "the time ran out, the suite crashed, or a data race halted it"
		}
		fmt.Fprintf(w, "\n  Not started, the run ended before them (%s: see below) (%d): %s\n", why, len(notStarted), strings.Join(notStarted, ", "))
	}
	if !header && len(notStarted) == 0 {
		fmt.Fprintf(w, "\nEvery test passed.\n")
	} else {
		where := ""
		switch {
		case rep.Variant != "":
			where = " (they run the checkout's code, without the variant's change: replay with the lines above)"
		case rep.Origin != "":
			where = " (in the hand-in's own checkout; here they would run this checkout's code)"
		}
		race := raceWord(rep.Race)
		fmt.Fprintf(w, "\nOne part's tests with their whole output: make grade-a5.1%s ... make grade-a5.7%s%s\n", race, race, where)
	}
}

// notesHeading heads a report's notes on what was handed in, which are
// not problems of a run: they say why its points may be what they are.
const notesHeading = "Notes on the hand-in"

// printNotes prints rep's notes under their own heading, right below the
// points they explain.
func printNotes(w io.Writer, rep *Report) {
	if len(rep.Notes) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", notesHeading)
	for _, l := range rep.Notes {
		fmt.Fprintf(w, "    %s\n", l)
	}
}

// printAgain names the command that grades a hand-in here again, in every
// report of one (README: each report.txt names it): a hand-in with full
// marks is regraded too (a REF moved, hidden tests added), one that does not
// compile or was refused is regraded after the instructor looked at why.
func printAgain(w io.Writer, rep *Report) {
	if cmd := againLine(rep); cmd != "" {
		fmt.Fprintf(w, "\nThis hand-in again, here: %s\n", cmd)
	}
}

// replayWhere says where a hand-in's replay lines run: make grade-a5.N in
// the grader's checkout would run that checkout's code, not the hand-in's.
func replayWhere(rep *Report) string {
	if rep.Origin != "" && rep.Variant == "" {
		return " (in the hand-in's own checkout)"
	}
	return ""
}

// againCommand is the make command that grades rep's hand-in here as it
// was graded: the same commit of a repository (REF, a deadline's tag may
// have moved since, and HEAD is other code), part, runs, hidden tests and
// time per run.
func againCommand(rep *Report) string {
	cmd := "make grade SUBMISSION=" + makeWord(rep.Origin)
	if rep.Ref != "" {
		cmd += " REF=" + makeWord(rep.Ref)
	}
	cmd += partWord(rep.Part)
	if rep.Repeat > 1 {
		cmd += fmt.Sprintf(" REPEAT=%d", rep.Repeat)
	}
	if rep.Extra != "" {
		cmd += " EXTRA=" + makeWord(rep.Extra)
	}
	if d, err := time.ParseDuration(rep.Timeout); err == nil && d != defaultTimeout {
		cmd += " TIMEOUT=" + d.String()
	}
	return cmd + raceWord(rep.Race)
}

// partWord is " PART=A5.2" for a grade of one part, "" for all.
func partWord(part string) string {
	if part == "" {
		return ""
	}
	return " PART=" + part
}

// printTests lists every part and test with its points and what it checks.
func printTests(w io.Writer) {
	for _, p := range conformance.Parts() {
		kind := ""
		if p.Optional {
			kind = ", optional"
		}
		fmt.Fprintf(w, "%s (%d points%s): %s\n", p.ID, p.Points, kind, p.Title)
		for _, t := range conformance.Tests() {
			if t.Part == p.ID {
				fmt.Fprintf(w, "  %-22s %2d  %s\n", t.Name, t.Points, t.Doc)
			}
		}
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// GradedDir is the folder whose .go files were graded, as the submission
// has it (reports of older graders lack it).
func (rep *Report) GradedDir() string {
	if rep.Dir != "" {
		return rep.Dir
	}
	return gradedDir
}

// NeverStarted says whether no test of the grading ran: the code did not
// compile, or the suite ended before its first test in every run (one
// such run of several leaves the others' failures to show). Then a list
// of every test with a command to replay it says nothing.
func (r *Report) NeverStarted() bool {
	if len(r.Compile) > 0 || slices.Contains(r.Problems, noCompile) {
		return true
	}
	n := 0
	for _, p := range r.Problems {
		if strings.HasSuffix(p, noManifest) {
			n++
		}
	}
	return n > 0 && n >= r.runsMade()
}

// runsMade is how many runs of the suite the grade folds: every test
// counts them (fewer than Repeat when the time ran out).
func (r *Report) runsMade() int {
	for _, p := range r.Parts {
		for _, t := range p.Tests {
			return t.Runs
		}
	}
	return max(r.Repeat, 1)
}

// safeWriter shows the control characters of what it writes as escapes:
// a report carries the graded code's own text (compiler messages, panics,
// test output) to an instructor's terminal, where an ESC sequence would
// act and a right-to-left override would hide what a line says.
type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, visible(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// visible is s with every unsafeRune written as a Go escape.
// A byte that is no UTF-8 is written as \xNN too: a raw 0x9b is the
// 8-bit form of ESC [ to some terminals.
func visible(s string) string {
	if utf8.ValidString(s) && strings.IndexFunc(s, unsafeRune) < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case !unsafeRune(r):
			b.WriteString(s[i : i+size])
		case r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
		i += size
	}
	return b.String()
}

// unsafeRune: C0 and C1 controls but newline and tab, DEL, and the
// bidirectional overrides and isolates.
func unsafeRune(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r < 0xa0 ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// totalsLine is the report's sum: "required parts: 80 / 100 points; bonus:
// 15 / 20".
func totalsLine(rep *Report) string {
	return totals(rep, "required parts: %d / %d points", "bonus: %d / %d", "; ")
}

// shortTotals is totalsLine for one line of progress: "80/100, bonus 15/20".
func shortTotals(rep *Report) string { return totals(rep, "%d/%d", "bonus %d/%d", ", ") }

// totals joins, with sep, the totals rep has (ShowsRequired, ShowsBonus),
// each an earned and a possible number put into its format.
func totals(rep *Report, required, bonus, sep string) string {
	var parts []string
	if rep.ShowsRequired() {
		parts = append(parts, fmt.Sprintf(required, rep.Required.Earned, rep.Required.Possible))
	}
	if rep.ShowsBonus() {
		parts = append(parts, fmt.Sprintf(bonus, rep.Bonus.Earned, rep.Bonus.Possible))
	}
	return strings.Join(parts, sep)
}
