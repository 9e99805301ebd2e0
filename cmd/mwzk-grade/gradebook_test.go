package main

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestGradebookPossibleIsOnePerPart (a review's failing test): with
// PART=A5.1 and EXTRA (a hidden A5.1 test worth 3), a hand-in the suite
// ran is out of 33, but a refused or non-compiling one of the same batch,
// scored from the grader's own list, said 30: two denominators in one
// gradebook. Every row of a part now says the most any report offers.
func TestGradebookPossibleIsOnePerPart(t *testing.T) {
	root := testRoot(t, false)
	o := withDefaults(options{part: "A5.1", extra: filepath.Join(root, "grading", "extra-example")})
	man := append(manifestOf(nil), manifestTest{"A5.1", "HiddenRecreate", 3, true}) // what the suite announces
	graded := &Report{Status: "graded", Part: "A5.1"}
	score(graded, []*run{{manifest: man}}, o.part)
	refused := refusedReport(root, o, &batchItem{name: "carol", path: "carol.rar"}, fmt.Errorf("%w: carol.rar: not an archive", errRefused))
	broken := &Report{Status: "compile-error", Part: "A5.1"}
	score(broken, nil, o.part)
	if graded.Required.Possible != 33 {
		t.Fatalf("the graded report is out of %d, want 33 (30 and the hidden test's 3)", graded.Required.Possible)
	}
	items := []batchItem{{name: "alice", rep: graded}, {name: "carol", rep: refused}, {name: "dave", rep: broken}}
	possible := possibleByPart(items)
	for _, it := range items {
		if got := gradebookRow(it.name, it.rep, possible[it.rep.Part])[3]; got != "33" {
			t.Errorf("%s (%s): possible %s in a gradebook whose graded rows are out of 33", it.name, it.rep.Status, got)
		}
	}
}
