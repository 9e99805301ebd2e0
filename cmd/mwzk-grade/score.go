package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"zablab/internal/stacks"
	"zablab/mwzookeeper/conformance"
)

// Report is the grade, as printed and as written to grade.json. It holds
// everything needed to grade the same code the same way again
// (mwzk-grade --replay).
type Report struct {
	Submission string   `json:"submission"`        // its name
	Origin     string   `json:"origin,omitempty"`  // the archive, folder or repository graded
	Ref        string   `json:"ref,omitempty"`     // the commit graded, for a repository
	Impl       string   `json:"impl,omitempty"`    // without a submission: assignment or solution
	Variant    string   `json:"variant,omitempty"` // a known-bad variant's file
	Extra      string   `json:"extra,omitempty"`   // the folder of hidden tests
	Status     string   `json:"status"`            // graded, compile-error, refused, timeout
	SHA256     string   `json:"sha256,omitempty"`  // of the graded files (submission.sha256)
	Dir        string   `json:"dir,omitempty"`     // the graded folder, as it is in the submission
	Files      []string `json:"files,omitempty"`   // the graded files, in Dir
	Ignored    []string `json:"ignored,omitempty"` // what came with the submission and was not used

	Grader     string  `json:"grader"`      // the grader's commit, "dirty" or "unknown"
	GraderTree string  `json:"grader_tree"` // sha256 of the grader's files used
	GoVersion  string  `json:"go_version"`
	Date       string  `json:"date"` // RFC 3339
	Seconds    float64 `json:"seconds"`

	Part   string `json:"part,omitempty"` // only this part was graded
	Repeat int    `json:"repeat"`
	// Timeout is the time of one run ("15m0s"): a timeout graded with
	// another is graded again (batch.go, upToDate).
	Timeout string             `json:"timeout,omitempty"`
	Seeds   []map[string]int64 `json:"seeds,omitempty"` // per run, per randomized test
	// Unconfined: the code ran without the sandbox (--no-sandbox, or one's
	// own checkout where none can be made).
	Unconfined bool `json:"unconfined,omitempty"`
	// Race: the suite ran under the race detector (--race), halting a run
	// at its first data race.
	Race bool `json:"race,omitempty"`

	Required Score       `json:"required"` // A5.1-A5.4
	Bonus    Score       `json:"bonus"`    // the optional parts
	Parts    []PartGrade `json:"parts"`
	Compile  []string    `json:"compile_errors,omitempty"`
	Problems []string    `json:"problems,omitempty"` // output outside any test, result channel problems
	// Notes are about what was handed in, not about a run (the unchanged
	// stubs): reports give them a heading of their own. Older grade.json
	// files had them among the problems (copyNote still reads them there).
	Notes []string `json:"notes,omitempty"`
	// Crash is the first run whose graded code crashed (a panic or fatal
	// error, not a data race's halt), for the gradebook's note.
	Crash *RunCrash `json:"crash,omitempty"`
}

// RunCrash is where one run crashed: the test running then ("" when none
// was), the crash's line, and how many tests that run had started and never
// started.
type RunCrash struct {
	Run        int    `json:"run"`
	Test       string `json:"test,omitempty"`
	Line       string `json:"line"`
	Started    int    `json:"started"`
	NotStarted int    `json:"not_started"`
}

// ShowsRequired and ShowsBonus say which totals the reports show: a grade
// of one optional part (PART=A5.6) has no required points to give, one of
// a required part (PART=A5.2) no bonus; "0 / 0" would read as a score.
func (r *Report) ShowsRequired() bool { return r.Required.Possible > 0 || r.Bonus.Possible == 0 }

// ShowsBonus: see ShowsRequired.
func (r *Report) ShowsBonus() bool { return r.Bonus.Possible > 0 }

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
	Extra   bool     `json:"extra,omitempty"` // a hidden test
	Points  int      `json:"points"`
	Earned  int      `json:"earned"`
	Passes  int      `json:"passes"`
	Runs    int      `json:"runs"`
	Status  string   `json:"status"` // pass, fail, flaky, skip, not started, not finished
	Failure []string `json:"failure,omitempty"`
	// FailedRun is the run (from 1) that did not pass first, whose
	// failure is shown and whose seed replays it; 0 when every run passed.
	FailedRun int `json:"failed_run,omitempty"`
	// Pictures are pages the failing test drew of its failure (pictures.go).
	Pictures []string `json:"pictures,omitempty"`
}

// failureLineCount is how many lines of a failing test's output a
// report keeps.
const failureLineCount = 10 // room for a stuck goroutine's frames (internal/stacks)

// score grades the runs; part limits the parts graded ("" for all). The
// tests are those the suite announced (hidden ones included); without any
// run, the grader's own list.
func score(rep *Report, runs []*run, part string) {
	tests := manifestOf(runs)
	rep.Parts, rep.Required, rep.Bonus = nil, Score{}, Score{}
	for _, p := range conformance.Parts() {
		if part != "" && p.ID != part {
			continue
		}
		pg := PartGrade{ID: p.ID, Title: p.Title, Optional: p.Optional, Score: Score{Possible: p.Points}}
		for _, t := range tests {
			if t.Part != p.ID {
				continue
			}
			tg := gradeTest(runs, t)
			pg.Score.Earned += tg.Earned
			if t.Extra {
				pg.Score.Possible += t.Points
			}
			pg.Tests = append(pg.Tests, tg)
		}
		total := &rep.Required
		if p.Optional {
			total = &rep.Bonus
		}
		total.Earned += pg.Score.Earned
		total.Possible += pg.Score.Possible
		rep.Parts = append(rep.Parts, pg)
	}
	rep.Crash = firstCrash(runs, tests, part)
	for k, r := range runs {
		prefix := ""
		if len(runs) > 1 {
			prefix = fmt.Sprintf("run %d: ", k+1)
		}
		var race []string
		if lines := findRace(r); lines != nil {
			race = raceProblem(r, k+1, lines)
		}
		for _, p := range slices.Concat(race, r.problems, otherProblems(r)) {
			rep.Problems = append(rep.Problems, prefix+p)
		}
	}
}

// firstCrash is the first run whose graded code crashed, with the test it
// cut short and the count of those (of the graded part) it never started;
// nil when none did. A data race's halt is told as such (raceHalted).
func firstCrash(runs []*run, tests []manifestTest, part string) *RunCrash {
	for k, r := range runs {
		line := crashLine(r)
		if line == "" || findRace(r) != nil {
			continue
		}
		c := &RunCrash{Run: k + 1, Line: line}
		for _, t := range tests {
			if part != "" && t.Part != part {
				continue
			}
			name := t.Part + "/" + t.Name
			o := r.tests[name]
			switch {
			case o == nil:
				c.NotStarted++
				continue
			case o.status == "" && c.Test == "":
				c.Test = name
			}
			c.Started++
		}
		return c
	}
	return nil
}

// manifestOf is the suite's own list from the first run that sent one,
// else the grader's.
func manifestOf(runs []*run) []manifestTest {
	for _, r := range runs {
		if r.manifest != nil {
			return r.manifest
		}
	}
	var out []manifestTest
	for _, t := range conformance.Tests() {
		out = append(out, manifestTest{t.Part, t.Name, t.Points, t.Extra})
	}
	return out
}

// gradeTest folds the runs of one test.
func gradeTest(runs []*run, t manifestTest) TestGrade {
	tg := TestGrade{Name: t.Name, Extra: t.Extra, Points: t.Points, Runs: len(runs)}
	name := t.Part + "/" + t.Name
	status, uncredited := "", 0
	for k, r := range runs {
		o := r.tests[name]
		if r.credited(name) {
			tg.Passes++
			continue
		}
		if uncredited == 0 {
			uncredited = k + 1
		}
		crash := crashLine(r)
		switch {
		case o == nil && (r.timedOut || crash != ""):
			status = worse(status, "not started")
		case o == nil || o.status == "" || o.status == "pass":
			// No event, or a pass without a signed pass: it did not
			// finish as far as the grade knows.
			status = worse(status, "not finished")
		default:
			status = worse(status, o.status)
		}
		if tg.Failure == nil && o != nil {
			// The failure shown and the seed that replays it are one run's.
			tg.FailedRun = k + 1
			tg.Failure = failureLines(o.lines, failureLineCount)
			if o.status == "" && crash != "" {
				// It was running when the process died: that is its failure.
				why := crashedWhile
				if findRace(r) != nil {
					why = "the race detector halted the run while this test ran: "
				}
				tg.Failure = append([]string{why + crash}, tg.Failure...)
				tg.Failure = tg.Failure[:min(len(tg.Failure), failureLineCount)]
			}
		}
	}
	if tg.FailedRun == 0 {
		tg.FailedRun = uncredited // no run has its output: the first that failed
	}
	switch {
	case len(runs) > 0 && tg.Passes == len(runs):
		tg.Status, tg.Earned = "pass", t.Points
	case tg.Passes > 0:
		tg.Status = "flaky"
	case status == "":
		tg.Status = "not run"
	default:
		tg.Status = status
	}
	return tg
}

// crashedWhile starts the failure of the test a crash cut short (older
// grade.json files told the crash only there: crashOfOlderReport).
const crashedWhile = "the suite crashed while this test ran: "

// crashLine is the panic or fatal error that ended run r, with the first
// frame of the graded code below it; "" for a run that did not crash (Go's
// own test timeout is a panic too, but told as a timeout).
func crashLine(r *run) string {
	if r.exitErr == nil {
		return ""
	}
	if race := findRace(r); race != nil {
		return raceLine(race)
	}
	for k, l := range r.other {
		if (strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ")) && !strings.HasPrefix(l, goTimeoutPrefix) {
			return l + gradedFramesIn(r.other, 2) + readOnlyWrite(r.other[k+1:])
		}
	}
	return ""
}

// readOnlyWrite explains a fault of a write into read-only memory (code
// 0x2 on the line after "fatal error: fault": Linux's SIGSEGV with
// SEGV_ACCERR, macOS's SIGBUS): graded code without unsafe reaches such
// memory only through the shared values of package mwzookeeper
// (readonly.go there).
func readOnlyWrite(after []string) string {
	if len(after) == 0 || !(strings.HasPrefix(after[0], "[signal SIGSEGV") || strings.HasPrefix(after[0], "[signal SIGBUS")) ||
		!strings.Contains(after[0], " code=0x2 ") {
		return ""
	}
	return ": a write into read-only memory, most likely into mwzookeeper.OpenACL's entry or an error sentinel " +
		"(mwzookeeper.ErrNoNode, ...) through a copy or a pointer; every replica of the suite's process shares them, " +
		"so they are read-only (change a copy, slices.Clone(mwzookeeper.OpenACL), and wrap a sentinel with %w to say more)"
}

// worse keeps the more telling of two statuses.
func worse(a, b string) string {
	rank := map[string]int{"": 0, "skip": 1, "not started": 2, "not finished": 3, "fail": 4}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// outOfMemory starts the problem of a run that hit the sandbox's cap.
const outOfMemory = "the run ran out of memory"

// gradedFrameIn names the first frame of the graded code on the stacks
// Go printed (", in init.0 (leak.go:9)"), "" if none: the runtime's own
// frames come first and say nothing about where the memory went.
func gradedFrameIn(lines []string) string { return gradedFramesIn(lines, 1) }

// gradedFramesIn names up to n frames of the graded code on the first
// stack that has any, innermost first ("in (*tree).link (tree.go:71) ←
// (*Service).create (apply.go:156)"): the innermost may be provided code,
// the student's line is often the one calling it.
func gradedFramesIn(lines []string, n int) string {
	for _, g := range stacks.Parse(strings.Join(lines, "\n")) {
		if frames := stacks.Frames(g, gradedPkg); len(frames) > 0 {
			return ", in " + strings.Join(frames[:min(n, len(frames))], " ← ")
		}
	}
	return ""
}

// otherProblems are the lines of a run outside every test that explain a
// run that did not finish (panic, timeout).
func otherProblems(r *run) []string {
	if r.exitErr == nil {
		return nil
	}
	var out []string
	stuck, goTimedOut := findStuck(r.other)
	goTimedOut = goTimedOut && r.timedOut // else only the graded code's words
	if goTimedOut {
		out = append(out, stuck.lines(r.limit)...)
	} else if r.timedOut {
		out = append(out, "the run was stopped: the submission's time was up")
	}
	quoted := make([]bool, len(r.other))
	if findRace(r) != nil {
		quoted = inRaceReport(r.other) // raceProblem quotes it
	}
	for k, l := range r.other {
		if quoted[k] || r.race && raceNoise.MatchString(l) {
			continue
		}
		if goTimedOut && strings.HasPrefix(l, goTimeoutPrefix) {
			break // the rest is the stacks, summed up above
		}
		if l == "" || l == "FAIL" || l == "PASS" || strings.HasPrefix(l, "FAIL\t") || strings.HasPrefix(l, "ok  \t") {
			continue
		}
		if r.memCap > 0 && strings.HasPrefix(l, "fatal error:") && strings.Contains(l, "out of memory") {
			out = append(out, fmt.Sprintf("%s: the sandbox gives the suite and the graded code %d MiB (a leak, or a queue without bound?)%s",
				outOfMemory, r.memCap>>20, gradedFrameIn(r.other)))
		}
		out = append(out, l)
		if len(out) == 20 {
			break
		}
	}
	var ee *exec.ExitError
	if len(out) == 0 && errors.As(r.exitErr, &ee) && !ee.Exited() {
		// Killed by a signal before it could say anything (the runtime's
		// start out of memory): say at least how. A plain exit status 1
		// is failing tests, told above.
		out = append(out, fmt.Sprintf("the suite's process ended without a word: %v", r.exitErr))
	}
	return out
}

// seedsOf are the seeds each run's randomized tests used.
func seedsOf(runs []*run) []map[string]int64 {
	var out []map[string]int64
	any := false
	for _, r := range runs {
		m := map[string]int64{}
		for name, s := range r.sealed {
			if s.seed != 0 {
				m[name], any = s.seed, true
			}
		}
		out = append(out, m)
	}
	if !any {
		return nil
	}
	return out
}

// writeJSON writes rep to file.
func writeJSON(rep *Report, file string) error {
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(b, '\n'), 0o644)
}

// readJSON reads a grade.json.
func readJSON(file string) (*Report, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("%s: not a grade.json: %w", file, err)
	}
	return &rep, nil
}
