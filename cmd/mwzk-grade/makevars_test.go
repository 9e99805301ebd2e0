package main

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestMisspelledMakeVariableIsRefused: a make variable that the target
// does not take, but that is (nearly) one of a grading, stops the grading
// before anything runs; make had ignored REPEATS=5 and graded a class
// with one run each (an instructor's trial). Other variables pass.
func TestMisspelledMakeVariableIsRefused(t *testing.T) {
	batch := options{submissions: "class"}
	for _, c := range []struct {
		o         options
		makeflags string
		want      string
	}{
		{batch, "s -- SUBMISSIONS=/tmp/a\\ b REPEATS=5", "make grade-all takes no REPEATS (did you mean REPEAT?)"},
		{batch, " -j2 --jobserver-auth=3,4 -- repeat=5", "make grade-all takes no repeat (did you mean REPEAT?)"},
		{batch, " -- TIMOUT=3m", "did you mean TIMEOUT?"},
		{options{}, " -- SUBMISSIONS=class", "make grade takes no SUBMISSIONS (did you mean SUBMISSION?)"},
		{options{}, " -- OUT=grades", "make grade takes no OUT (OUT is a setting of another target"},
		{options{variant: "x.diff"}, " -- TIMEOUT=1m", "make grade-variant takes no TIMEOUT"},
		{batch, "s -- SUBMISSIONS=/tmp/a\\ b REPEAT=5 OUT=g J=2 GOFLAGS=-mod=mod CC=gcc MWZK_SEED=7", ""},
		{options{}, "", ""},
		{options{}, "s", ""},
	} {
		err := checkMakeVars(c.o, c.makeflags)
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: %v, want none", c.makeflags, err)
			}
			continue
		}
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.makeflags, err, c.want)
		}
	}
	got := commandLineVars("s -- SUBMISSIONS=/tmp/a\\ b=c OUT:=x")
	if !slices.Equal(got, []string{"SUBMISSIONS", "OUT"}) {
		t.Errorf("commandLineVars: %q", got)
	}
}
