package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"zablab/internal/procs"
)

// errCheck is a step of the handout check that failed.
var errCheck = errors.New("handout check failed")

// errInterrupted is a check stopped by SIGINT (Ctrl-C) or SIGTERM: its
// unpacked copy is removed, and the tool exits 130.
var errInterrupted = errors.New("interrupted")

// stopGrace is how long a step stopped by a signal may take to end on its
// own (go's work folders, make test's trap) before its group is killed.
const stopGrace = 10 * time.Second

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
// pass within testLimit. The folder is removed after a check that passed
// unless keep is set, and kept after one that failed: its test outputs,
// grade.json and builds are what the instructor looks at next.
// left are the files the handout left out: a build or vet failure names
// the Go files among them, the usual cause.
// A check stopped by ctx (a signal) removes the folder unless keep is set:
// nothing failed there to look at.
func check(ctx context.Context, root, archive, testPkgs string, keep bool, left []dropped, log io.Writer) (err error) {
	tmp, err := os.MkdirTemp("", "mwzk-handout-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Fprintf(log, "handout: keeping %s\n", tmp)
	}
	defer func() {
		switch {
		case errors.Is(err, errInterrupted) && keep:
			err = fmt.Errorf("%w\nthe unpacked handout is kept in %s (--keep)", err, tmp)
		case errors.Is(err, errInterrupted):
			if rerr := os.RemoveAll(tmp); rerr != nil {
				err = errors.Join(err, fmt.Errorf("removing the unpacked handout %s: %w", tmp, rerr))
			} else {
				err = fmt.Errorf("%w; removed the unpacked handout %s", err, tmp)
			}
		case err != nil:
			err = fmt.Errorf("%w\nthe unpacked handout is kept in %s for a look (remove it when done)", err, tmp)
		case !keep:
			err = os.RemoveAll(tmp)
		}
	}()
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
		if _, err := run(ctx, dir, s, 0, log); errors.Is(err, errInterrupted) {
			return err // no failure: the files left out are no cause
		} else if err != nil {
			return fmt.Errorf("%w%s", err, leftOutGo(left))
		}
	}
	stubs, err := testAndGrade(ctx, dir, makeTest(testPkgs, "on the untouched stubs"), zeroPoints, log)
	if err != nil {
		return err
	}
	if err := copyReference(root, dir); err != nil {
		return err
	}
	fmt.Fprintf(log, "handout: copied the reference's %s/*.go into %s\n", refDir, stubDir)
	ref, err := testAndGrade(ctx, dir, makeTest(testPkgs, "with the reference copied in"), fullPoints, log)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "handout: make test took %s on the stubs and %s with the reference (limit %s each)\n", stubs, ref, testLimit)
	return nil
}

// verify checks the archive build wrote (<o.out>.unchecked) and gives it
// its name o.out when the check passes. When it fails the archive becomes
// <o.out>.failed: under its own name it would look ready to hand out.
// SIGINT (Ctrl-C) and SIGTERM stop the check: it removes its unpacked
// copy, which the signal's default action left in the temporary folder.
// So does the death of the `go run` that started the tool (main asks for
// SIGTERM then, procs.StopWithGoRun), which left it checking on, orphaned.
func verify(root string, o options, left []dropped, log io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	unchecked := o.out + uncheckedSuffix
	return settle(unchecked, o.out, check(ctx, root, unchecked, o.testPkgs, o.keep, left, log))
}

// settle names the checked archive after its check's result err. An
// interrupted check failed nothing: its archive stays <out>.unchecked.
func settle(unchecked, out string, err error) error {
	if err == nil {
		return os.Rename(unchecked, out)
	}
	if errors.Is(err, errInterrupted) {
		return fmt.Errorf("%w\n%s was not checked to the end: it stays %s", err, out, unchecked)
	}
	failed := out + failedSuffix
	if rerr := os.Rename(unchecked, failed); rerr != nil {
		return errors.Join(err, fmt.Errorf("%w: moving the archive that failed aside: %w", errCheck, rerr))
	}
	return fmt.Errorf("%w\n%s failed its check: it is now %s", err, out, failed)
}

// failedSuffix marks an archive whose check failed, uncheckedSuffix one
// whose check has not passed (yet, or was interrupted).
const (
	failedSuffix    = ".failed"
	uncheckedSuffix = ".unchecked"
)

// testAndGrade runs make test (within testLimit), then make grade, whose
// report judge checks. It returns how long make test took.
func testAndGrade(ctx context.Context, dir string, test step, judge func(string, []byte) (string, error), log io.Writer) (time.Duration, error) {
	start := time.Now()
	if _, err := run(ctx, dir, test, testLimit, log); err != nil {
		return 0, err
	}
	took := time.Since(start).Round(time.Second)
	out, err := run(ctx, dir, step{"make grade", []string{"make", "grade"}}, 0, log)
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
// step, with everything it started, when it runs longer. The end of ctx
// stops it too: its process group (a group of its own, which a Ctrl-C at
// the terminal does not reach) gets SIGINT, so go and make test clean up
// their own temporary files, and is killed after stopGrace, or at once on
// a second signal.
func run(ctx context.Context, dir string, s step, limit time.Duration, log io.Writer) ([]byte, error) {
	start := time.Now()
	fmt.Fprintf(log, "handout: %s ...\n", s.name)
	cmd := exec.CommandContext(ctx, s.args[0], s.args[1:]...)
	ended := make(chan struct{})
	var hurried atomic.Bool
	cmd.Cancel = func() error {
		sig, stop := secondSignal()
		go killOnSecondSignal(cmd, sig, stop, ended, &hurried)
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	}
	cmd.WaitDelay = stopGrace
	cmd.Dir = dir
	cmd.Env = append(studentEnv(), "GOWORK=off")
	if limit == 0 {
		limit = 24 * time.Hour
	}
	out, err := procs.Run(cmd, limit)
	close(ended)
	took := time.Since(start).Round(100 * time.Millisecond)
	if hurried.Load() {
		return nil, fmt.Errorf("%w: %s in %s killed at once on a second signal after %s", errInterrupted, s.name, dir, took)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%w: %s in %s stopped after %s", errInterrupted, s.name, dir, took)
	}
	if errors.Is(err, procs.ErrDeadline) {
		return nil, fmt.Errorf("%w: %s in %s took longer than %s; stopped:\n%s", errCheck, s.name, dir, limit, failureReport(string(out)))
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s in %s: %v after %s:\n%s", errCheck, s.name, dir, err, took, failureReport(string(out)))
	}
	fmt.Fprintf(log, "handout: %s ok (%s)\n", s.name, took)
	return out, nil
}

// secondSignal starts listening for a second Ctrl-C (or SIGTERM) while a
// stopped step has its grace to end on its own: whoever presses it again
// wants out now, not stopGrace later. A variable so that a test can send
// one without signalling itself.
var secondSignal = func() (<-chan os.Signal, func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	return ch, func() { signal.Stop(ch) }
}

// killOnSecondSignal kills the step's process group when sig comes before
// the step ended, and notes that in hurried (run says so: the step's own
// cleanup did not run).
func killOnSecondSignal(cmd *exec.Cmd, sig <-chan os.Signal, stop func(), ended <-chan struct{}, hurried *atomic.Bool) {
	defer stop()
	select {
	case <-sig:
		hurried.Store(true)
		_ = procs.KillGroup(cmd)
	case <-ended:
	}
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

// failureLine is a line of go test's output that names what failed: a
// test, a package, a panic, a race or a fatal error of the runtime.
var failureLine = regexp.MustCompile(`^\s*--- FAIL: |^FAIL\t|^panic: |^fatal error: |^WARNING: DATA RACE`)

// maxFailures bounds the failure lines shown: a broken package can fail
// hundreds of subtests, and the first ones name it.
const maxFailures = 40

// failureReport is a failed step's output as the error shows it: the
// lines naming what failed, collected from the whole output (make test's
// runs thousands of lines, and its last ones are the passing packages
// after the failing one), then the last lines for the context.
func failureReport(out string) string {
	var failed []string
	for _, l := range strings.Split(out, "\n") {
		if failureLine.MatchString(l) {
			failed = append(failed, strings.TrimRight(l, "\r"))
		}
	}
	if len(failed) == 0 {
		return tail(out, 60)
	}
	more := ""
	if len(failed) > maxFailures {
		more = fmt.Sprintf("\n  ... and %d more", len(failed)-maxFailures)
		failed = failed[:maxFailures]
	}
	return "what failed:\n  " + strings.Join(failed, "\n  ") + more + "\nthe output's last lines:\n" + tail(out, 60)
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
