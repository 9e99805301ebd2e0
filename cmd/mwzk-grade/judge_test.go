package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestGradeVariantSaysWhetherItsLinesHeld: make grade-variant printed only
// points, and an instructor writing a new variant had to compare them with
// its preamble by eye. Now the report ends with a verdict per line, the
// variants test's own judgement, and a line that does not hold is an error.
func TestGradeVariantSaysWhetherItsLinesHeld(t *testing.T) {
	part := func(id string, earned, possible int, failed ...string) PartGrade {
		p := PartGrade{ID: id, Score: Score{Earned: earned, Possible: possible}}
		for _, n := range failed {
			p.Tests = append(p.Tests, TestGrade{Name: n, Status: "fail", Failure: []string{n + " went wrong"}})
		}
		return p
	}
	rep := Report{Status: "graded", Parts: []PartGrade{
		part("A5.1", 30, 30), part("A5.2", 0, 30, "ReadYourWrites"), part("A5.3", 10, 20, "Expiry"), part("A5.4", 5, 10, "Clock"),
	}}
	for _, c := range []struct {
		name   string
		v      variant
		want   []string // lines the report must have
		broken bool
	}{
		{"held", variant{loses: []string{"A5.2", "A5.4"}, all: []string{"A5.2"}, may: []string{"A5.3"}}, []string{
			"Loses all: A5.2 — held (0/30)", "Loses: A5.4 — held (5/10)", "May lose: A5.3 — held (10/20)", "Not named, must keep: A5.1 — held (30/30)",
		}, false},
		{"kept a part it must lose", variant{loses: []string{"A5.1", "A5.2", "A5.4"}, may: []string{"A5.3"}}, []string{
			"Loses: A5.1 — NOT held: A5.1 has 30/30: the suite does not catch it", "Loses: A5.2 — held (0/30)",
		}, true},
		{"lost a part not named", variant{loses: []string{"A5.2", "A5.4"}}, []string{
			"Not named, must keep: A5.3 — NOT held: A5.3 has 10/20, which it must keep (does a test check more than its part?): Expiry fail",
		}, true},
		{"not all of a Loses all part", variant{loses: []string{"A5.2", "A5.4"}, all: []string{"A5.4"}, may: []string{"A5.3"}}, []string{
			"Loses all: A5.4 — NOT held: A5.4 has 5/10: it must lose every point",
		}, true},
		{"allowed", variant{keeps: []string{"A5.1", "A5.6"}}, []string{
			"Keeps: A5.1 — held (30/30)", "Keeps: A5.6 — not graded here",
		}, false},
		{"allowed, stricter suite", variant{keeps: []string{"A5.2"}}, []string{
			"Keeps: A5.2 — NOT held: A5.2 has 0/30, which it must keep whole: ReadYourWrites fail",
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := c.v
			v.file, v.about = "/x/solutions/variants/made-up.diff", "made up"
			v.loses = append(v.loses, v.all...) // as loadVariant does
			var out bytes.Buffer
			err := printVerdicts(&out, &v, rep)
			for _, w := range c.want {
				if !strings.Contains(out.String(), "  "+w) {
					t.Errorf("the report has no line %q:\n%s", w, out.String())
				}
			}
			if got := errors.Is(err, errVariantBroken); got != c.broken {
				t.Errorf("printVerdicts: %v; want a broken preamble: %v\n%s", err, c.broken, out.String())
			}
		})
	}
}

// TestTimedOutVariantIsNotBlamedOnItsPreamble: a grading that ran out of
// time lost parts to the clock, and the verdict blamed the preamble ("does
// a test check more than its part?"), an error beside the timeout's own.
// Now the verdict lines stand, with a line saying the time may be why, and
// only the timeout is an error.
func TestTimedOutVariantIsNotBlamedOnItsPreamble(t *testing.T) {
	rep := Report{Status: "timeout", Parts: []PartGrade{
		{ID: "A5.1", Score: Score{Earned: 0, Possible: 30}}, {ID: "A5.2", Score: Score{Earned: 0, Possible: 30}},
	}}
	v := variant{file: "/x/solutions/variants/made-up.diff", about: "made up", loses: []string{"A5.2"}}
	var out bytes.Buffer
	err := printVerdicts(&out, &v, rep)
	if errors.Is(err, errVariantBroken) {
		t.Errorf("printVerdicts after a timeout: %v; want no broken preamble", err)
	}
	for _, w := range []string{"Not named, must keep: A5.1 — NOT held", "the grading ran out of time"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the report has no %q:\n%s", w, out.String())
		}
	}
}

// TestTimedOutRaceVariantWithoutRaceIsNotBlamed: a "Race: yes" variant
// graded with --race=false must keep every point; when that grading ran
// out of time, the parts it cut short lost points to the clock, and the
// verdict still called the variant broken beside the timeout's own error,
// the very blame TestTimedOutVariantIsNotBlamedOnItsPreamble removed for
// the other variants.
func TestTimedOutRaceVariantWithoutRaceIsNotBlamed(t *testing.T) {
	rep := Report{Status: "timeout", Race: false, Parts: []PartGrade{
		{ID: "A5.1", Score: Score{Earned: 30, Possible: 30}}, {ID: "A5.2", Score: Score{Earned: 0, Possible: 30}},
	}}
	v := variant{file: "/x/solutions/variants/data-race.diff", about: "made up", race: true, loses: []string{"A5.1"}}
	var out bytes.Buffer
	if err := printVerdicts(&out, &v, rep); errors.Is(err, errVariantBroken) {
		t.Errorf("printVerdicts after a timeout without the race detector: %v; want no broken preamble", err)
	}
	if !strings.Contains(out.String(), "ran out of time") {
		t.Errorf("the report does not say the time may be why:\n%s", out.String())
	}
}
