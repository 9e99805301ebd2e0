package main

import (
	"slices"
	"testing"
)

// A relocated git finds its helper programs through GIT_EXEC_PATH; the
// variables that point git at other objects or another repository go.
func TestGitEnvKeepsExecPathOnly(t *testing.T) {
	t.Setenv("GIT_EXEC_PATH", "/opt/git/libexec/git-core")
	t.Setenv("GIT_CEILING_DIRECTORIES", "/home")
	t.Setenv("GIT_DIR", "/home/teacher/other/.git")
	t.Setenv("GIT_ALTERNATE_OBJECT_DIRECTORIES", "/home/alice/.git/objects")
	env := gitEnv()
	for _, kv := range []string{"GIT_EXEC_PATH=/opt/git/libexec/git-core", "GIT_CEILING_DIRECTORIES=/home"} {
		if !slices.Contains(env, kv) {
			t.Errorf("git's environment lacks %s", kv)
		}
	}
	for _, kv := range []string{"GIT_DIR=/home/teacher/other/.git", "GIT_ALTERNATE_OBJECT_DIRECTORIES=/home/alice/.git/objects"} {
		if slices.Contains(env, kv) {
			t.Errorf("git's environment keeps %s", kv)
		}
	}
}
