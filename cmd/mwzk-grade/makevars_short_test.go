package main

import "testing"

// TestShortMakeVariablesPass: a one-letter variable is one edit
// from J and V, so every one-letter variable on make's command line is
// taken for a grading's and stops the grading ("make grade-all takes no
// Q (did you mean J?)"), though checkMakeVars says other variables are
// make's business. Q=@ and D=1 are common quiet/debug switches of
// Makefiles; make grade itself has nothing near them.
func TestShortMakeVariablesPass(t *testing.T) {
	for _, c := range []struct {
		o         options
		makeflags string
	}{
		{options{}, " -- Q=@"},
		{options{submissions: "class"}, " -- SUBMISSIONS=class D=1"},
		{options{checkCode: true}, " -- RUN=Session N=3"},
	} {
		if err := checkMakeVars(c.o, c.makeflags); err != nil {
			t.Errorf("%s with MAKEFLAGS %q: %v", targetOf(c.o), c.makeflags, err)
		}
	}
}
