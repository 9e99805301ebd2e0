package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"zablab/internal/procs"
)

// errCheck is a step of the handout check that failed.
var errCheck = errors.New("handout check failed")

// step is one command run in the unpacked handout.
type step struct {
	name string
	args []string
}

// testLimit is how long the handout's make test may take on a 2-core
// machine: a student runs it before every hand-in.
const testLimit = 10 * time.Minute

// makeTest is the make test step; pkgs empty means the whole tree, which
// is what a student runs.
func makeTest(pkgs, what string) step {
	args := []string{"make", "test"}
	if pkgs != "" {
		args = append(args, "PKGS="+pkgs)
	}
	return step{strings.Join(args, " ") + " " + what, args}
}

// check unpacks the archive into a fresh temporary folder and does there
// what a student does: build, vet, make test and make grade on the
// untouched stubs (0 points), then the same with the reference's files
// copied into assignments/aufgabe5 (every point). Either make test must
// pass within testLimit. The folder is removed unless keep is set.
// left are the files the handout left out: a build or vet failure names
// the Go files among them, the usual cause.
func check(root, archive, testPkgs string, keep bool, left []dropped, log io.Writer) (err error) {
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
	for _, s := range []step{{"go build ./...", []string{"go", "build", "./..."}}, {"go vet ./...", []string{"go", "vet", "./..."}}} {
		if _, err := run(dir, s, 0, log); err != nil {
			return fmt.Errorf("%w%s", err, leftOutGo(left))
		}
	}
	stubs, err := testAndGrade(dir, makeTest(testPkgs, "on the untouched stubs"), zeroPoints, log)
	if err != nil {
		return err
	}
	if err := copyReference(root, dir); err != nil {
		return err
	}
	fmt.Fprintf(log, "handout: copied the reference's %s/*.go into %s\n", refDir, stubDir)
	ref, err := testAndGrade(dir, makeTest(testPkgs, "with the reference copied in"), fullPoints, log)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "handout: make test took %s on the stubs and %s with the reference (limit %s each)\n", stubs, ref, testLimit)
	return nil
}

// testAndGrade runs make test (within testLimit), then make grade, whose
// report judge checks. It returns how long make test took.
func testAndGrade(dir string, test step, judge func(string, []byte) (string, error), log io.Writer) (time.Duration, error) {
	start := time.Now()
	if _, err := run(dir, test, testLimit, log); err != nil {
		return 0, err
	}
	took := time.Since(start).Round(time.Second)
	out, err := run(dir, step{"make grade", []string{"make", "grade"}}, 0, log)
	if err != nil {
		return 0, err
	}
	sum, err := judge(dir, out)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(log, "handout: make grade: %s\n", sum)
	return took, nil
}

// copyReference replaces the handout's assignments/aufgabe5 non-test Go
// files by the reference's, as a student who finished would have them.
func copyReference(root, dir string) error {
	dst := filepath.Join(dir, stubDir)
	old, err := filepath.Glob(filepath.Join(dst, "*.go"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if !strings.HasSuffix(f, "_test.go") {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	ref, err := filepath.Glob(filepath.Join(root, refDir, "*.go"))
	if err != nil {
		return err
	}
	for _, f := range ref {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(f)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// run runs one step in dir as a student's shell would (no MWZK_GRADE, no
// go.work), and returns its combined output. A limit above zero ends the
// step, with everything it started, when it runs longer.
func run(dir string, s step, limit time.Duration, log io.Writer) ([]byte, error) {
	start := time.Now()
	fmt.Fprintf(log, "handout: %s ...\n", s.name)
	cmd := exec.Command(s.args[0], s.args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(studentEnv(), "GOWORK=off")
	if limit == 0 {
		limit = 24 * time.Hour
	}
	out, err := procs.Run(cmd, limit)
	took := time.Since(start).Round(100 * time.Millisecond)
	if errors.Is(err, procs.ErrDeadline) {
		return nil, fmt.Errorf("%w: %s in %s took longer than %s; stopped:\n%s", errCheck, s.name, dir, limit, tail(string(out), 60))
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s in %s: %v after %s:\n%s", errCheck, s.name, dir, err, took, tail(string(out), 60))
	}
	fmt.Fprintf(log, "handout: %s ok (%s)\n", s.name, took)
	return out, nil
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
