package main

import (
	"bufio"
	"errors"
	"io"
	"syscall"
	"time"
)

// input reads the typed commands. A launcher started in the background
// of an interactive shell (make run &) was stopped by the kernel at its
// first read of the terminal (SIGTTIN) before any peer started, and one
// whose input ended ignored every later line without a word; both are
// said now, and a background run reads again once it is brought to the
// foreground (fg).
type input struct {
	r   io.Reader
	say func(format string, args ...any)
	// foreground tells whether the terminal r is reads from now
	// belongs to this process's group; nil where that cannot be asked
	// (r is no terminal, or not Linux).
	foreground func() (bool, error)
	// poll is how often a background run asks whether it was brought
	// to the foreground: the kernel sends no signal a job could wait
	// on when the shell hands it the terminal.
	poll time.Duration
}

// commands sends the input's lines on the returned channel until the input
// ends for good.
func (in input) commands() <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		for {
			err := in.lines(ch)
			switch {
			case err == nil:
				in.say("standard input ended: typed commands are off; Ctrl-C (or kill -INT %d) stops the peers", syscall.Getpid())
				return
			case !errors.Is(err, syscall.EIO) || in.foreground == nil:
				in.say("standard input: %v: typed commands are off; Ctrl-C (or kill -INT %d) stops the peers", err, syscall.Getpid())
				return
			}
			// At the shell's prompt, "kill 3" is the shell's own kill of
			// pid 3 (a new user's trial): say so where the commands are named.
			in.say("running in the background: typed commands are read once it is in the foreground again (fg); "+
				"at the shell's prompt kill N is the shell's kill of pid N; kill -INT %d stops the peers", syscall.Getpid())
			if err := in.waitForeground(); err != nil {
				in.say("terminal: %v: typed commands are off; kill -INT %d stops the peers", err, syscall.Getpid())
				return
			}
			in.say("in the foreground: %s", commandHelp)
		}
	}()
	return ch
}

// lines sends lines until the input ends (nil) or fails.
func (in input) lines(ch chan<- string) error {
	sc := bufio.NewScanner(in.r)
	for sc.Scan() {
		ch <- sc.Text()
	}
	return sc.Err()
}

// waitForeground returns once the terminal is this process group's.
func (in input) waitForeground() error {
	tick := time.NewTicker(in.poll)
	defer tick.Stop()
	for {
		fg, err := in.foreground()
		if err != nil || fg {
			return err
		}
		<-tick.C
	}
}
