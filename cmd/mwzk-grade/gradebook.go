package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// The gradebook of a batch: gradebook.csv, one row per hand-in, and the
// one-line note its last column and the batch's progress lines share.

// gradebookFile is the gradebook's name in the output folder, beside
// the hand-ins' report folders.
const gradebookFile = "gradebook.csv"

// gradebookHeader is the first line of gradebook.csv.
var gradebookHeader = []string{"submission", "status", "total", "possible", "bonus", "A5.1", "A5.2", "A5.3", "A5.4", "A5.5", "A5.6", "A5.7", "sha256", "seconds", "note"}

// reportNote says in one line why a submission earned nothing by the
// usual way: what refused it, the compiler's first line, where it hung.
func reportNote(r *Report) string {
	var n string
	switch r.Status {
	case "refused":
		if len(r.Problems) > 0 {
			n = r.Problems[0]
		}
	case "compile-error":
		for _, l := range r.Compile {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				n = l
				break
			}
		}
	case "timeout":
		n = "time ran out"
		if slices.Contains(r.Problems, noCompile) {
			n = "time ran out while the code was compiled"
		} else if r.NeverStarted() {
			// The suite bounds every call of a Service; what holds the
			// process before the tests is the package's own start.
			n = "time ran out before any test started (an init that never returns?)"
		}
		for _, p := range r.Problems {
			if _, where, ok := strings.Cut(p, "(a call that never returns?): "); ok {
				n = "stuck in " + where
			}
		}
	case "graded":
		if n = crashNote(r); n == "" {
			n = copyNote(r)
		}
	}
	if r := []rune(n); len(r) > maxNote {
		// Whole characters (the note is UTF-8 text), and a pointer to the
		// rest: a refusal's advice comes last, after the cut.
		n = string(r[:maxNote-len([]rune(noteCut))]) + noteCut
	}
	return n
}

// maxNote bounds a gradebook note; noteCut ends one that was longer.
const (
	maxNote = 200
	noteCut = "... (the rest in report.txt)"
)

// crashNote is the note of a graded run that ended early: out of memory,
// halted by a data race (--race), a suite that never started its tests (a
// panic in an init) or one that crashed in a test, with the first line that
// says why; "" for a run that ended normally.
func crashNote(r *Report) string {
	problems := r.Problems
	for _, p := range problems {
		if i := strings.Index(p, outOfMemory); i >= 0 {
			return p[i:]
		}
		if i := strings.Index(p, raceHalted); i >= 0 {
			note, _, _ := strings.Cut(p[i:], ": ")
			return note
		}
	}
	if !r.NeverStarted() {
		return midRunCrash(r)
	}
	for i, p := range problems {
		if strings.HasSuffix(p, noManifest) {
			for _, q := range problems[i+1:] {
				if !strings.Contains(q, "no signed result") {
					return "the tests never started: " + q
				}
			}
			return "the tests never started"
		}
	}
	return ""
}

// midRunCrash is the note of a run whose graded code crashed: the tests it
// never started earned nothing, which a score alone does not tell from a
// weak hand-in. The count comes first, where a long panic line is cut.
func midRunCrash(r *Report) string {
	c := r.Crash
	if c == nil {
		c = crashOfOlderReport(r)
	}
	if c == nil {
		return ""
	}
	// No test running: a panic from a goroutine a finished test left
	// behind, or in the teardown, is as much a crash as one in a test.
	where := "between tests"
	switch {
	case c.Test != "":
		where = "in " + c.Test
	case c.Started == 0:
		where = "before its first test"
	case c.NotStarted == 0:
		where = "after its last test"
	}
	if r.Repeat > 1 {
		where += fmt.Sprintf(" in run %d", c.Run)
	}
	tests := "tests"
	if c.NotStarted == 1 {
		tests = "test"
	}
	return fmt.Sprintf("the suite crashed %s (%d %s not started): %s", where, c.NotStarted, tests, c.Line)
}

// crashOfOlderReport reads the crash of a grade.json written before it had
// "crash" (an interrupted batch keeps the earlier batch's rows): then only
// the failure of the test the crash cut short told it.
func crashOfOlderReport(r *Report) *RunCrash {
	var c *RunCrash
	started, notStarted := 0, 0
	for _, p := range r.Parts {
		for _, t := range p.Tests {
			if t.Status == "not started" {
				notStarted++
				continue
			}
			started++
			if c != nil || len(t.Failure) == 0 {
				continue
			}
			if line, ok := strings.CutPrefix(t.Failure[0], crashedWhile); ok {
				c = &RunCrash{Run: t.FailedRun, Test: p.ID + "/" + t.Name, Line: line}
			}
		}
	}
	if c != nil {
		c.Started, c.NotStarted = started, notStarted
	}
	return c
}

// writeGradebook writes one line per submission.
func writeGradebook(file string, items []batchItem) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Write(gradebookHeader)
	possible := possibleByPart(items)
	for _, it := range items {
		switch {
		case it.rep == nil: // an interrupted batch's, never graded: still a row
			row := make([]string, len(gradebookHeader))
			row[0], row[1] = csvText(it.name), "not graded"
			row[len(row)-1] = "the batch was interrupted before this hand-in was graded: run it again"
			w.Write(row)
		case it.earlier:
			row := gradebookRow(it.name, it.rep, possible[it.rep.Part])
			why := "from an earlier batch (this one was interrupted before it); "
			if it.changed {
				why = "from an earlier batch, of files that changed since (this one was interrupted before it): run it again; "
			}
			row[len(row)-1] = strings.TrimSuffix(why+row[len(row)-1], "; ")
			w.Write(row)
		default:
			w.Write(gradebookRow(it.name, it.rep, possible[it.rep.Part]))
		}
	}
	w.Flush()
	return errors.Join(w.Error(), f.Close())
}

// possibleByPart is what a gradebook's total is out of, per graded part
// ("" for all): the most any of its reports offers. A run's manifest
// counts hidden tests (EXTRA); a hand-in refused or not compiled never ran
// and knows only the suite's own tests, and its row must not say 30 where
// its classmates' say 33.
func possibleByPart(items []batchItem) map[string]int {
	m := map[string]int{}
	for _, it := range items {
		if it.rep != nil {
			m[it.rep.Part] = max(m[it.rep.Part], it.rep.Required.Possible)
		}
	}
	return m
}

func gradebookRow(name string, r *Report, possible int) []string {
	bonus := "" // a batch of one required part graded no bonus part
	if r.ShowsBonus() {
		bonus = strconv.Itoa(r.Bonus.Earned)
	}
	// possible: what total is out of, 100, or a part's alone (PART=A5.1:
	// 30), so that a part-only gradebook does not pass for a whole one.
	// An optional part alone (PART=A5.6) has no required total: empty
	// cells, as the reports show none, not a total of 0 out of 0.
	total, outOf := "", ""
	if r.ShowsRequired() {
		total, outOf = strconv.Itoa(r.Required.Earned), strconv.Itoa(possible)
	}
	row := []string{csvText(name), csvText(r.Status), total, outOf, bonus}
	for _, id := range gradebookHeader[5:12] {
		i := slices.IndexFunc(r.Parts, func(p PartGrade) bool { return p.ID == id })
		if i < 0 {
			row = append(row, "")
			continue
		}
		row = append(row, strconv.Itoa(r.Parts[i].Score.Earned))
	}
	return append(row, csvText(r.SHA256), strconv.FormatFloat(r.Seconds, 'f', 1, 64), csvText(reportNote(r)))
}

// csvText is a text cell of the gradebook. The hand-in's file name and
// the note (a compiler line, a refusal) come from the student: a cell
// starting with = + - @, a tab or a CR is a formula in a spreadsheet
// program, so it gets a leading ' (OWASP's advice on CSV injection).
func csvText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
