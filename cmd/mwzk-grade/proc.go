package main

import (
	"os"
	"os/exec"
	"strings"
)

// helperCommand is a helper process of the grader's (git, test2json, go
// env) in a process group of its own: a Ctrl-C in the terminal reaches
// the grader alone, which decides what the interrupt ends (a git killed
// by it would make a false refusal, a test2json killed by it a run with
// lost results).
func helperCommand(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	if name == "git" {
		cmd.Env = gitEnv()
	}
	inGroup(cmd)
	return cmd
}

// gitEnv is the grader's environment for git: without the instructor's
// GIT_* variables, which could point git at other repositories' objects
// (GIT_ALTERNATE_OBJECT_DIRECTORIES, GIT_OBJECT_DIRECTORY) or another
// repository altogether (GIT_DIR) and grade what the hand-in does not
// hold. Two stay: GIT_CEILING_DIRECTORIES only stops git's search upwards,
// and GIT_EXEC_PATH is where a relocated git finds its own programs (without
// it such a git cannot read any hand-in).
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "GIT_CEILING_DIRECTORIES=") &&
			!strings.HasPrefix(kv, "GIT_EXEC_PATH=") {
			continue
		}
		env = append(env, kv)
	}
	return env
}
