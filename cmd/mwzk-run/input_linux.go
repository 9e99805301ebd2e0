package main

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// terminalInput prepares reading typed commands from f. If f is a
// terminal, SIGTTIN is ignored, so that a read while the launcher runs in
// the background fails with EIO instead of stopping the process, and the
// returned function tells whether the launcher is in the foreground. The
// peers inherit the ignored signal (exec keeps it); they read no terminal.
func terminalInput(f *os.File) func() (bool, error) {
	fd := int(f.Fd())
	if _, err := unix.IoctlGetTermios(fd, unix.TCGETS); err != nil {
		return nil // not a terminal: no job control to mind
	}
	signal.Ignore(syscall.SIGTTIN)
	return func() (bool, error) {
		pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
		if err != nil {
			return false, err
		}
		return pgrp == unix.Getpgrp(), nil
	}
}
