package main

import (
	"encoding/json"
	"os"
	"strings"

	"zablab/mwzookeeper/conformance"
)

// Report is the grade, as printed and as written to grade.json.
type Report struct {
	Impl     string      `json:"impl"`              // "assignment" or "solution"
	Package  string      `json:"package"`           // ./assignments/aufgabe5/
	Variant  string      `json:"variant,omitempty"` // a known-bad variant's file
	Repeat   int         `json:"repeat"`
	Required Score       `json:"required"` // A5.1-A5.4
	Bonus    Score       `json:"bonus"`    // the optional parts
	Parts    []PartGrade `json:"parts"`
	Problems []string    `json:"problems,omitempty"` // output outside any test: build errors, panics, timeouts
}

// Score is earned of possible points.
type Score struct {
	Earned   int `json:"earned"`
	Possible int `json:"possible"`
}

// PartGrade is one part's points and its tests.
type PartGrade struct {
	ID       string      `json:"id"`
	Title    string      `json:"title"`
	Optional bool        `json:"optional"`
	Score    Score       `json:"score"`
	Tests    []TestGrade `json:"tests"`
}

// TestGrade is one test over every run: it earns its points only if it
// passed in every run.
type TestGrade struct {
	Name    string   `json:"name"`
	Points  int      `json:"points"`
	Earned  int      `json:"earned"`
	Passes  int      `json:"passes"`
	Runs    int      `json:"runs"`
	Status  string   `json:"status"` // pass, fail, flaky, skip, not finished
	Failure []string `json:"failure,omitempty"`
}

// failureLineCount is how many lines of a failing test's output a
// report keeps.
const failureLineCount = 6

// score grades the runs against the suite's parts and tests; part limits
// the parts graded ("" for all).
func score(runs []*run, part string) Report {
	var rep Report
	rep.Repeat = len(runs)
	for _, p := range conformance.Parts() {
		if part != "" && p.ID != part {
			continue
		}
		pg := PartGrade{ID: p.ID, Title: p.Title, Optional: p.Optional, Score: Score{Possible: p.Points}}
		for _, t := range conformance.Tests() {
			if t.Part == p.ID {
				tg := gradeTest(runs, t)
				pg.Score.Earned += tg.Earned
				pg.Tests = append(pg.Tests, tg)
			}
		}
		total := &rep.Required
		if p.Optional {
			total = &rep.Bonus
		}
		total.Earned += pg.Score.Earned
		total.Possible += pg.Score.Possible
		rep.Parts = append(rep.Parts, pg)
	}
	for _, r := range runs {
		rep.Problems = append(rep.Problems, problems(r)...)
	}
	return rep
}

// gradeTest folds the runs of one test.
func gradeTest(runs []*run, t conformance.Test) TestGrade {
	tg := TestGrade{Name: t.Name, Points: t.Points, Runs: len(runs)}
	status := ""
	for _, r := range runs {
		o := r.tests[t.Part+"/"+t.Name]
		switch {
		case o == nil:
			status = worse(status, "not finished")
		case o.status == "pass":
			tg.Passes++
		case o.status == "":
			status = worse(status, "not finished")
			if tg.Failure == nil {
				tg.Failure = failureLines(o.lines, failureLineCount)
			}
		default:
			status = worse(status, o.status)
			if tg.Failure == nil {
				tg.Failure = failureLines(o.lines, failureLineCount)
			}
		}
	}
	switch {
	case len(runs) > 0 && tg.Passes == len(runs):
		tg.Status, tg.Earned = "pass", t.Points
	case tg.Passes > 0:
		tg.Status = "flaky"
	default:
		tg.Status = status
	}
	return tg
}

// worse keeps the more telling of two statuses.
func worse(a, b string) string {
	rank := map[string]int{"": 0, "skip": 1, "not finished": 2, "fail": 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// problems are the lines of a run outside every test that explain a run
// that did not finish (build failure, panic, timeout).
func problems(r *run) []string {
	if r.exitErr == nil {
		return nil
	}
	var out []string
	for _, l := range r.other {
		if l == "" || l == "FAIL" || l == "PASS" || strings.HasPrefix(l, "FAIL\t") || strings.HasPrefix(l, "ok  \t") {
			continue
		}
		out = append(out, l)
		if len(out) == 20 {
			break
		}
	}
	return out
}

// writeJSON writes rep to file.
func writeJSON(rep Report, file string) error {
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(b, '\n'), 0o644)
}
