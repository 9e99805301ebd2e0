package main

import (
	"fmt"
	"slices"
	"strings"

	"zablab/internal/near"
)

// The make targets pass only the variables they know on to mwzk-grade; a
// misspelled one (REPEATS=5) was ignored without a word, and a class was
// graded with one run each where the sheet promises five (an instructor's
// trial). Make hands the command line's variables down in MAKEFLAGS, after
// " -- ", so mwzk-grade can check them itself.

// makeVars are the make variables of each way of grading, by the target
// that takes them.
var makeVars = []struct {
	target string
	names  []string
}{
	{"make grade", []string{"IMPL", "REPEAT", "PART", "SUBMISSION", "REF", "EXTRA", "TIMEOUT", "NO_SANDBOX", "RACE", "GRADE_JSON"}},
	{"make grade-all", []string{"SUBMISSIONS", "OUT", "J", "TIMEOUT", "REPEAT", "PART", "EXTRA", "REF", "NO_SANDBOX", "RACE"}},
	{"make grade-variant", []string{"V", "REPEAT", "PART", "RACE"}},
	{"make grade-a5.N", []string{"IMPL", "RUN", "RACE"}},
}

// targetOf names the make target that started a grading with o.
func targetOf(o options) string {
	switch {
	case o.checkCode:
		return "make grade-a5.N"
	case o.variant != "":
		return "make grade-variant"
	case o.submissions != "":
		return "make grade-all"
	}
	return "make grade"
}

// checkMakeVars refuses a variable on make's command line (makeflags is
// $MAKEFLAGS) that the target does not take but that is, or nearly is, a
// variable of some grading: it would have been ignored. Other variables
// (GOFLAGS=..., CC=...) are make's business and pass.
func checkMakeVars(o options, makeflags string) error {
	target := targetOf(o)
	var own, all []string
	for _, m := range makeVars {
		if m.target == target {
			own = m.names
		}
		all = append(all, m.names...)
	}
	for _, name := range commandLineVars(makeflags) {
		if slices.Contains(own, name) {
			continue
		}
		up := strings.ToUpper(name) // repeat=5 means REPEAT too
		if len(name) == 1 && !slices.Contains(all, up) {
			continue // one edit from J and V is every letter: Q=@, D=1 are other Makefiles' switches
		}
		if mean, ok := near.Word(up, own); ok {
			return fmt.Errorf("%w: %s takes no %s (did you mean %s?): nothing was graded", errUsage, target, name, mean)
		}
		if other, ok := near.Word(up, all); ok {
			return fmt.Errorf("%w: %s takes no %s (%s is a setting of another target; this one's: %s): nothing was graded",
				errUsage, target, name, other, strings.Join(own, ", "))
		}
	}
	return nil
}

// commandLineVars lists the names of the variables in MAKEFLAGS, which
// puts the command line's VAR=value words after " -- ", spaces in values
// escaped with a backslash.
func commandLineVars(makeflags string) []string {
	_, rest, ok := strings.Cut(" "+makeflags, " -- ")
	if !ok {
		return nil
	}
	var names []string
	var word strings.Builder
	flush := func() {
		if name, _, ok := strings.Cut(word.String(), "="); ok && name != "" {
			names = append(names, strings.TrimRight(name, ":+?!"))
		}
		word.Reset()
	}
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '\\' && i+1 < len(rest):
			i++
			word.WriteByte(rest[i])
		case c == ' ':
			flush()
		default:
			word.WriteByte(c)
		}
	}
	flush()
	return names
}
