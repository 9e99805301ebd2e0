package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// errCheck is a step of the handout check that failed.
var errCheck = errors.New("handout check failed")

// step is one command run in the unpacked handout.
type step struct {
	name string
	args []string
}

// checkSteps are what a student does first with the handout: build, vet,
// test, and grade the untouched stubs.
func checkSteps(testPkgs string) []step {
	return []step{
		{"go build ./...", []string{"go", "build", "./..."}},
		{"go vet ./...", []string{"go", "vet", "./..."}},
		{"make test PKGS=" + testPkgs, []string{"make", "test", "PKGS=" + testPkgs}},
		{"make grade", []string{"make", "grade"}},
	}
}

// check unpacks the archive into a fresh temporary folder and runs the
// steps there, printing a line per step to log. The folder is removed
// unless keep is set.
// left are the files the handout left out: a build or vet failure names
// the Go files among them, the usual cause.
func check(archive string, testPkgs string, keep bool, left []dropped, log io.Writer) (err error) {
	tmp, err := os.MkdirTemp("", "mwzk-handout-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Fprintf(log, "handout: keeping %s\n", tmp)
	} else {
		defer func() { err = errors.Join(err, os.RemoveAll(tmp)) }()
	}
	f, err := os.Open(archive)
	if err != nil {
		return err
	}
	err = extractTar(f, tmp)
	f.Close()
	if err != nil {
		return err
	}
	dir := filepath.Join(tmp, strings.TrimSuffix(prefix, "/"))
	fmt.Fprintf(log, "handout: unpacked into %s\n", dir)
	for _, s := range checkSteps(testPkgs) {
		out, err := run(dir, s, log)
		if err != nil {
			return fmt.Errorf("%w%s", err, leftOutGo(left))
		}
		if s.name == "make grade" {
			sum, err := zeroPoints(dir, out)
			if err != nil {
				return err
			}
			fmt.Fprintf(log, "handout: make grade gives the untouched stubs 0 points (%s)\n", sum)
		}
	}
	return nil
}

// run runs one step in dir as a student's shell would (no MWZK_GRADE, no
// go.work), and returns its combined output.
func run(dir string, s step, log io.Writer) ([]byte, error) {
	start := time.Now()
	fmt.Fprintf(log, "handout: %s ...\n", s.name)
	cmd := exec.Command(s.args[0], s.args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(studentEnv(), "GOWORK=off")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	took := time.Since(start).Round(100 * time.Millisecond)
	if err != nil {
		return nil, fmt.Errorf("%w: %s in %s: %v after %s:\n%s", errCheck, s.name, dir, err, took, tail(out.String(), 60))
	}
	fmt.Fprintf(log, "handout: %s ok (%s)\n", s.name, took)
	return out.Bytes(), nil
}

// studentEnv is the environment without the variables grading sets.
func studentEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "MWZK_") || strings.HasPrefix(kv, "GOWORK=") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// leftOutGo names the Go files left out of the handout that a package may
// have needed, or says nothing when there are none.
func leftOutGo(left []dropped) string {
	var names []string
	for _, d := range left {
		if strings.HasSuffix(d.path, ".go") && !strings.HasPrefix(d.why, "instructor only") {
			names = append(names, d.path)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "\nGo files left out because they import " + solutionsImport +
		" (a package must build and vet without them):\n  " + strings.Join(names, "\n  ")
}
