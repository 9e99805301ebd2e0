package main

import (
	"os/exec"
	"syscall"
)

// inGroup puts cmd in a process group of its own that dies with the grader:
// a timeout kills the whole group, and a grader killed by anyone takes its
// children along (Pdeathsig).
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the process group of cmd's process, whatever is left of it.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
