package main

import (
	"errors"
	"io"
	"testing"

	"github.com/spf13/pflag"
)

// TestHelpIsNoFailure: --help ends in pflag.ErrHelp, which main treats
// as success; an unknown flag is a usage error (exit 2).
func TestHelpIsNoFailure(t *testing.T) {
	if err := run1([]string{"--help"}, io.Discard); !errors.Is(err, pflag.ErrHelp) || exitCode(err) != 0 {
		t.Errorf("--help: %v (exit %d), want pflag.ErrHelp, exit 0", err, exitCode(err))
	}
	err := run1([]string{"--bogus"}, io.Discard)
	if err == nil || exitCode(err) != 2 {
		t.Errorf("--bogus: %v (exit %d), want a usage error, exit 2", err, exitCode(err))
	}
}
