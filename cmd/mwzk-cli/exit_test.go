package main

import (
	"errors"
	"fmt"
	"testing"

	"zablab/client/shell"
)

// TestSessionExit: a script piped in fails if a command failed; a session
// at a terminal that saw its failures ends 0 (make cli ended in "Error 1"
// after an earlier `get /nope`, in an instructor's trial); a broken session
// fails either way.
func TestSessionExit(t *testing.T) {
	failed := fmt.Errorf("2 commands: %w", shell.ErrFailed)
	broken := errors.New("read stdin: input/output error")
	for _, c := range []struct {
		err  error
		tty  bool
		want int
	}{{nil, false, 0}, {nil, true, 0}, {failed, false, 1}, {failed, true, 0}, {broken, true, 1}, {broken, false, 1}} {
		if got := sessionExit(c.err, c.tty); got != c.want {
			t.Errorf("sessionExit(%v, tty %v) = %d, want %d", c.err, c.tty, got, c.want)
		}
	}
}
