//go:build !linux

package procs

import "syscall"

// StopWithGoRun: elsewhere there is no parent-death signal; a tool whose
// `go run` was killed runs on until it ends.
func StopWithGoRun() syscall.Signal { return 0 }
