package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestSelfGradeTakesItsTimeout: make grade echoes --timeout '15m' for a
// self-grade too (mk/instructor.mk sets TIMEOUT for every target), and the
// flag is no noise there: the time limit bounds a self-grade as it bounds
// a hand-in's (gradeInTree), so TIMEOUT=1ms stops it.
func TestSelfGradeTakesItsTimeout(t *testing.T) {
	testRoot(t, false)
	g := filepath.Join(t.TempDir(), "grade.json")
	var log strings.Builder
	mainErr(context.Background(), []string{"--impl", "assignment", "--timeout", "1ms", "--json", g}, &log)
	rep, err := readJSON(g)
	if err != nil {
		t.Fatalf("no grade.json (%v); output:\n%s", err, log.String())
	}
	if rep.Status != "timeout" || rep.Timeout != "1ms" {
		t.Errorf("a self-grade with --timeout 1ms: status %q, timeout %q; want timeout, 1ms; output:\n%s", rep.Status, rep.Timeout, log.String())
	}
}
