package main

import "syscall"

// sysProcAttr puts a peer in its own process group, so that a Ctrl-C in the
// terminal reaches mwzk-run only and each peer gets the signal exactly once
// (forwarded); and has the kernel send it SIGTERM should mwzk-run die
// without stopping it (kill -9 of mwzk-run leaves no stray peers).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
