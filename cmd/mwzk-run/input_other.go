//go:build !linux

package main

import "os"

// terminalInput is Linux's only: elsewhere a background launcher is
// stopped at its first read of the terminal, as any program is.
func terminalInput(*os.File) func() (bool, error) { return nil }
