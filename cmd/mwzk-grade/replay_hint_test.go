package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplaySeedOfFailingRun: with --repeat 2 the replay line names the
// seed of the run whose failure the report shows (seed 2): not that of
// run 1, which passed Linearizable (seed 1), nor none when run 1 crashed
// in another test before Linearizable started.
func TestReplaySeedOfFailingRun(t *testing.T) {
	name := "A5.2/Linearizable"
	passed := &run{tests: map[string]*outcome{name: {status: "pass"}},
		sealed: map[string]sealedResult{name: {status: "pass", seed: 1, count: 1}}}
	crashed := &run{tests: map[string]*outcome{}, sealed: map[string]sealedResult{},
		exitErr: errors.New("exit status 2"), other: []string{"panic: boom", "goroutine 7 [running]:"}}
	for _, first := range []*run{passed, crashed} {
		failed := &run{tests: map[string]*outcome{name: {status: "fail", lines: []string{"lost write"}}},
			sealed: map[string]sealedResult{name: {status: "fail", seed: 2, count: 1}}}
		runs := []*run{first, failed}
		rep := &Report{Submission: "eve", Status: "graded", Repeat: 2}
		score(rep, runs, "A5.2")
		rep.Seeds = seedsOf(runs)
		var b strings.Builder
		printReport(&b, rep)
		if !strings.Contains(b.String(), "replay: MWZK_SEED=2 ") {
			t.Errorf("replay line does not name the failing run's seed 2 (run 1 crashed: %v):\n%s", first == crashed, b.String())
		}
	}
}

// TestReplayKeepsImpl: a grade of IMPL=solution must replay the
// solution; `make grade-a5.2` alone runs assignments/aufgabe5.
func TestReplayKeepsImpl(t *testing.T) {
	rep := &Report{Submission: "solution", Impl: "solution", Status: "graded", Repeat: 1,
		Parts: []PartGrade{{ID: "A5.2", Tests: []TestGrade{{Name: "Linearizable", Points: 6, Runs: 1, Status: "fail"}}}}}
	if h := replayHint(rep, "A5.2", rep.Parts[0].Tests[0]); !strings.Contains(h, "IMPL=solution") {
		t.Errorf("replay hint %q would run assignments/, not the graded solution", h)
	}
}

// TestReplayOfAVariantGradesTheVariant: grade-a5.N would run the reference
// without the variant's change, which passes.
func TestReplayOfAVariantGradesTheVariant(t *testing.T) {
	rep := &Report{Submission: "solution", Impl: "solution", Variant: "solutions/variants/local-clock.diff", Status: "graded", Repeat: 1,
		Seeds: []map[string]int64{{"A5.4/SameEverywhere": 7}},
		Parts: []PartGrade{{ID: "A5.4", Tests: []TestGrade{{Name: "SameEverywhere", Points: 6, Runs: 1, Status: "fail", FailedRun: 1}}}}}
	if h, want := replayHint(rep, "A5.4", rep.Parts[0].Tests[0]), "MWZK_SEED=7 make grade-variant V=local-clock PART=A5.4 RACE=0"; h != want {
		t.Errorf("replay hint %q, want %q", h, want)
	}
}

// TestReplayOfARaceGradingKeepsTheRaceDetector: a test a data race halted
// passes without the race detector, so its replay line (and the hint to
// run a part's tests) must carry RACE=1: a new user ran the line without
// it and saw PASS.
func TestReplayOfARaceGradingKeepsTheRaceDetector(t *testing.T) {
	rep := &Report{Submission: "mallory", Status: "graded", Repeat: 1, Race: true, Origin: "/tmp/class/mallory",
		Parts: []PartGrade{{ID: "A5.1", Score: Score{Possible: 30}, Tests: []TestGrade{{Name: "Session", Points: 4, Runs: 1, Status: "fail", FailedRun: 1}}}}}
	if h, want := replayHint(rep, "A5.1", rep.Parts[0].Tests[0]), "make grade-a5.1 RUN=Session RACE=1"; h != want {
		t.Errorf("replay hint %q, want %q", h, want)
	}
	var b strings.Builder
	printReport(&b, rep)
	if !strings.Contains(b.String(), "make grade-a5.1 RACE=1 ... make grade-a5.7 RACE=1") {
		t.Errorf("the hint for a part's tests leaves the race detector out:\n%s", b.String())
	}
}

// TestNestedModuleHidesHandIns: ./... stops at any folder with a
// go.mod on the way, not only at the hand-ins folder itself.
func TestNestedModuleHidesHandIns(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "grading", "ws24"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "grading", "go.mod"), []byte("module grading\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if rel, ok := seenByGoTool(root, filepath.Join(root, "grading", "ws24")); ok {
		t.Errorf("seenByGoTool = %q, true; grading/go.mod makes ./... skip it", rel)
	}
}
