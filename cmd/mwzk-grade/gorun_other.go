//go:build !linux

package main

import "syscall"

// stopWithGoRun: elsewhere there is no parent-death signal; a grader whose
// `go run` was killed grades on until it ends.
func stopWithGoRun() syscall.Signal { return 0 }
