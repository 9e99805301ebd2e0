package main

import "os/exec"

// helperCommand is a helper process of the grader's (git, test2json, go
// env) in a process group of its own: a Ctrl-C in the terminal reaches
// the grader alone, which decides what the interrupt ends (a git killed
// by it would make a false refusal, a test2json killed by it a run with
// lost results).
func helperCommand(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	inGroup(cmd)
	return cmd
}
