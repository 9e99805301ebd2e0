package main

import (
	"path/filepath"
	"testing"
)

// TestNoMultiEarnsNoMultiPoint: a hand-in without multi and without
// watches (A5.6 and A5.7 left undone, the rest done) earned 1 of A5.7's 5
// points: MultiWatches returned early, passing, when no single write fired
// a watch ("A5.6 counts that"), without ever sending a multi. Not counting
// A5.6 twice must not give A5.7's point for nothing.
func TestNoMultiEarnsNoMultiPoint(t *testing.T) {
	needGo(t)
	abs, err := filepath.Abs(filepath.Join("..", "..", "solutions", "variants", "multi-and-watches-none.diff"))
	if err != nil {
		t.Fatal(err)
	}
	rep := gradeOrFail(t, options{impl: "solution", variant: abs, part: "A5.7", ports: "26000-26999"})
	for _, p := range rep.Parts {
		for _, tg := range p.Tests {
			if tg.Status == "pass" {
				t.Errorf("%s/%s passed for a Service whose every multi fails with Unimplemented; want fail", p.ID, tg.Name)
			}
		}
	}
	if rep.Bonus.Earned != 0 {
		t.Errorf("a Service without multi earned %d/%d bonus points in A5.7; want 0", rep.Bonus.Earned, rep.Bonus.Possible)
	}
}
