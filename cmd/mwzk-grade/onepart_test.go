package main

import (
	"strings"
	"testing"
)

// TestOnePartShowsOnlyItsTotal: report.html of PART=A5.2 said "bonus 0 / 0"
// where report.txt and the console show no bonus at all, and every output
// of PART=A5.6 (an optional part) said "required parts: 0 / 0". A grade
// shows the totals it has: a whole grade both, one part only its own.
func TestOnePartShowsOnlyItsTotal(t *testing.T) {
	for _, c := range []struct {
		part            string
		required, bonus bool
	}{{"A5.2", true, false}, {"A5.6", false, true}, {"", true, true}} {
		rep := &Report{Submission: "alice", Origin: "hand-ins/alice", Status: "graded", Part: c.part, Repeat: 1}
		score(rep, nil, c.part)
		var txt strings.Builder
		printReport(&txt, rep)
		outputs := map[string]string{
			"report.txt":    txt.String(),
			"report.html":   strings.ToLower(reportHTML(t, rep)),
			"progress line": progressLine(&batchItem{name: "alice", rep: rep}),
			"replay line":   shortTotals(rep),
		}
		for name, out := range outputs {
			if got := strings.Contains(out, "bonus"); got != c.bonus {
				t.Errorf("PART=%q: %s mentions a bonus: %v, want %v:\n%s", c.part, name, got, c.bonus, out)
			}
			if got := strings.Contains(out, "/0") || strings.Contains(out, "/ 0"); got {
				t.Errorf("PART=%q: %s shows a total of nothing (x / 0):\n%s", c.part, name, out)
			}
		}
		if got := strings.Contains(txt.String(), "required parts"); got != c.required {
			t.Errorf("PART=%q: report.txt names required parts: %v, want %v", c.part, got, c.required)
		}
	}
}

// TestOnePartGradebookRow: a class graded with PART=A5.6 (an optional
// part) got gradebook rows with total 0 and possible 0, a "0 of 0" where
// report.txt, report.html and the console show no required total at all;
// the bonus cell of PART=A5.2 was already left empty. A row fills the
// total cells only for a grade that has required parts.
func TestOnePartGradebookRow(t *testing.T) {
	for _, c := range []struct {
		part                   string
		total, possible, bonus string
	}{{"A5.2", "0", "30", ""}, {"A5.6", "", "", "0"}, {"", "0", "100", "0"}} {
		rep := &Report{Submission: "alice", Origin: "hand-ins/alice", Status: "graded", Part: c.part, Repeat: 1}
		score(rep, nil, c.part)
		row := gradebookRow("alice", rep, rep.Required.Possible)
		if got := row[2:5]; got[0] != c.total || got[1] != c.possible || got[2] != c.bonus {
			t.Errorf("PART=%q: gradebook total, possible, bonus = %q, want [%q %q %q]", c.part, got, c.total, c.possible, c.bonus)
		}
	}
}
