package main

import (
	"strings"
	"testing"
)

// TestNotesFollowTheGradeInBothReports: report.txt printed the notes on
// the hand-in after the parts table (after the refusal's reasons for a
// refused one), report.html before it, so the two reports of one hand-in
// read in different orders. Both now give the grade (or the refusal)
// first, then the notes.
func TestNotesFollowTheGradeInBothReports(t *testing.T) {
	for _, status := range []string{"graded", "refused"} {
		rep := &Report{Submission: "anna", Status: status, Repeat: 1,
			Parts:    []PartGrade{{ID: "A5.1", Title: "Writes", Score: Score{Earned: 3, Possible: 20}}},
			Notes:    []string{"the note about the hand-in of anna"},
			Problems: []string{"the reason the hand-in of anna was refused"}}
		first := "A5.1"
		if status == "refused" {
			first = rep.Problems[0]
		}
		var txt strings.Builder
		printReport(&txt, rep)
		for name, page := range map[string]string{"report.txt": txt.String(), "report.html": reportHTML(t, rep)} {
			i, j := strings.Index(page, first), strings.Index(page, notesHeading)
			if i < 0 || j < 0 || j < i {
				t.Errorf("%s of a %s hand-in: %q at %d, %q at %d; want the notes after it:\n%s", name, status, first, i, notesHeading, j, page)
			}
		}
	}
}
