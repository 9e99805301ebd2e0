//go:build !linux

package main

import "syscall"

// sysProcAttr puts a peer in its own process group, so that a Ctrl-C in the
// terminal reaches mwzk-run only and each peer gets the signal exactly once.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
