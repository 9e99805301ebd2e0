package main

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestNoImplLeavesTheChoiceToTheServer (a new user's trial): in the
// student's handout, which has no reference, mwzk-run --help said
// (default "solution") and every peer was refused: `--impl "solution":
// want one of assignment`. Without --impl the server now picks, and it
// knows whether the reference was compiled into it; --impl given is
// passed on.
func TestNoImplLeavesTheChoiceToTheServer(t *testing.T) {
	var help strings.Builder
	if _, err := parseFlags([]string{"--help"}, &help); !errors.Is(err, pflag.ErrHelp) {
		t.Fatalf("--help: %v", err)
	}
	if strings.Contains(help.String(), `default "solution"`) {
		t.Errorf("--help names the reference as the default:\n%s", help.String())
	}
	for _, c := range []struct {
		args, want []string
	}{
		{nil, nil},
		{[]string{"--impl", "assignment"}, []string{"--impl", "assignment"}},
		{[]string{"--impl", "solution", "--trace-dir", "d"}, []string{"--impl", "solution", "--trace-dir", "d"}},
	} {
		f, err := parseFlags(c.args, &help)
		if err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		if got := serverArgs(f); !slices.Equal(got, c.want) {
			t.Errorf("%q: the server gets %q, want %q", c.args, got, c.want)
		}
	}
	if _, err := parseFlags([]string{"--impl", "bogus"}, &help); err == nil || !strings.Contains(err.Error(), `--impl "bogus"`) {
		t.Errorf("--impl bogus: %v", err)
	}
}
