//go:build !linux

package main

import "os/exec"

// inGroup: without Linux's process groups and parent-death signal, a
// timeout kills only the process itself.
func inGroup(*exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
