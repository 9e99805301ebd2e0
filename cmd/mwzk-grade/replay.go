package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// errMismatch says a replayed grading came out differently.
var errMismatch = errors.New("the replay does not match the recorded grade")

// replay grades again exactly as the grade.json o.replay describes: the
// same submission (refused if its files changed), part, repeat, hidden
// tests and seeds; then it compares the outcome test by test.
func replay(ctx context.Context, root string, o options, log io.Writer) error {
	old, err := readJSON(o.replay)
	if err != nil {
		return err
	}
	o.part, o.repeat, o.extra, o.seeds, o.variant, o.race = old.Part, max(old.Repeat, 1), old.Extra, old.Seeds, old.Variant, old.Race
	if d, err := time.ParseDuration(old.Timeout); err == nil && d > 0 && !o.timeoutSet {
		// A hand-in that timed out at TIMEOUT=2m must not get 15 minutes
		// (and come out differently) in its replay.
		o.timeout = d
	}
	var sub *submission
	if old.Origin != "" {
		o = o.forHandIn(old.Origin, old.Ref)
		sub, err = loadSubmission(old.Origin, old.Ref)
	} else {
		o.impl = old.Impl
		sub, err = checkoutSubmission(root, o)
	}
	if err != nil {
		return fmt.Errorf("replay %s: %w", o.replay, err)
	}
	if got := sub.sha256(); got != old.SHA256 {
		return fmt.Errorf("replay %s: the submission's files changed (sha256 %s, recorded %s): nothing to replay", o.replay, got, old.SHA256)
	}
	if old.Grader != graderVersion(root) {
		fmt.Fprintf(log, "mwzk-grade: note: recorded grader %s, this one is %s\n", old.Grader, graderVersion(root))
	}
	sub.Name = old.Submission
	fmt.Fprintf(log, "mwzk-grade: replaying %s (%s, %d run(s), seeds of %d run(s))\n", o.replay, sub.Name, o.repeat, len(o.seeds))
	rep, gerr := gradeSubmission(ctx, root, o, sub, log)
	if ctx.Err() != nil {
		return fmt.Errorf("%w: the replay of %s was cut short, nothing compared", errInterrupted, o.replay)
	}
	if rep == nil || rep.Status == "" {
		return gerr
	}
	printReport(log, rep)
	diffs := compareGrades(old, rep)
	if len(diffs) > 0 {
		fmt.Fprintf(log, "\nreplay differs from %s:\n  %s\n", o.replay, strings.Join(diffs, "\n  "))
		return errMismatch
	}
	fmt.Fprintf(log, "\nreplay matches %s: %s, %s, every test as recorded\n", o.replay, rep.Status, shortTotals(rep))
	return nil
}

// compareGrades lists how b differs from a: status, points, each test's outcome.
func compareGrades(a, b *Report) []string {
	var out []string
	if a.Status != b.Status {
		out = append(out, fmt.Sprintf("status %s, recorded %s", b.Status, a.Status))
	}
	if a.Required != b.Required || a.Bonus != b.Bonus {
		out = append(out, fmt.Sprintf("points %d+%d, recorded %d+%d", b.Required.Earned, b.Bonus.Earned, a.Required.Earned, a.Bonus.Earned))
	}
	was := map[string]string{}
	for _, p := range a.Parts {
		for _, t := range p.Tests {
			was[p.ID+"/"+t.Name] = t.Status
		}
	}
	for _, p := range b.Parts {
		for _, t := range p.Tests {
			name := p.ID + "/" + t.Name
			if w, ok := was[name]; !ok || w != t.Status {
				out = append(out, fmt.Sprintf("%s: %s, recorded %q", name, t.Status, w))
			}
		}
	}
	return out
}
