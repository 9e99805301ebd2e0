package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"zablab/internal/procs"
	"zablab/internal/wait"
)

// TestInterruptRemovesTheUnpackedCopy: make handout stopped with Ctrl-C
// (SIGINT) or SIGTERM during its check left its unpacked copy,
// /tmp/mwzk-handout-*, behind, and exited as killed by the signal. It now
// removes the copy (and whatever its step left in the temporary folder),
// keeps the archive as <out>.unchecked, and exits 130, as make test does.
// The tool runs as a subprocess whose TMPDIR is the test's own folder; it
// is signalled once it says it unpacked the copy, while go build runs there.
func TestInterruptRemovesTheUnpackedCopy(t *testing.T) {
	if testing.Short() {
		t.Skip("packs and unpacks the handout: skipped with -short")
	}
	bin, _ := builtTool(t)
	for name, sig := range map[string]syscall.Signal{"SIGINT": syscall.SIGINT, "SIGTERM": syscall.SIGTERM} {
		t.Run(name, func(t *testing.T) {
			tmp, out := toolFolders(t)
			cmd := inRepo(t, exec.Command(bin, "--out", out), tmp)
			lines := watchOutput(t, cmd)
			p := procs.Start(t, cmd)
			unpacked := lines.waitFor(t, p, "handout: unpacked into ")
			if err := p.Cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-p.Done():
			case <-time.After(time.Minute):
				t.Fatalf("still running a minute after %v; output:\n%s", sig, lines.text())
			}
			var exit *exec.ExitError
			if err := p.Err(); !errors.As(err, &exit) || exit.ExitCode() != 130 {
				t.Errorf("after %v: %v, want exit status 130; output:\n%s", sig, err, lines.text())
			}
			if _, err := os.Stat(filepath.Dir(unpacked)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("after %v the unpacked copy %s is still there (%v)", sig, filepath.Dir(unpacked), err)
			}
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Errorf("after %v the temporary folder holds %d entries, first %s", sig, len(left), left[0].Name())
			}
			if l := lines.text(); l != "" {
				t.Logf("after %v, the last line: %s", sig, l[strings.LastIndex(l, "\n")+1:])
			}
			if _, err := os.Stat(out + uncheckedSuffix); err != nil {
				t.Errorf("after %v: %v, want the archive kept as %s", sig, err, filepath.Base(out+uncheckedSuffix))
			}
		})
	}
}

// TestGoRunKilledRemovesTheUnpackedCopy: make handout runs the tool
// through go run, and a SIGTERM to make alone reaches only the go command,
// which dies of it: the tool went on checking, orphaned, and left its copy
// when it ended. Started by a process named "go" that is then killed, the
// tool now stops as on SIGTERM and removes the copy. The "go" here is a
// shell under that name, which waits for the tool as go run does.
func TestGoRunKilledRemovesTheUnpackedCopy(t *testing.T) {
	if testing.Short() {
		t.Skip("packs and unpacks the handout: skipped with -short")
	}
	bin, goRun := builtTool(t)
	tmp, out := toolFolders(t)
	cmd := inRepo(t, exec.Command(goRun, "-c", `"$0" "$@"; echo "parent: the tool ended ($?)"`, bin, "--out", out), tmp)
	lines := watchOutput(t, cmd)
	p := procs.Start(t, cmd) // its cleanup kills the group: the tool too, should it run on
	lines.waitFor(t, p, "handout: unpacked into ")
	if err := p.Cmd.Process.Kill(); err != nil { // the go command alone, not its group
		t.Fatal(err)
	}
	wait.For(t, "the tool to stop and remove its copy after its go run was killed", 2*time.Minute, func() bool {
		left, _ := os.ReadDir(tmp)
		return len(left) == 0 && strings.Contains(lines.text(), "was not checked to the end")
	})
}

// builtTool is mwzk-handout built into a temporary folder, and beside it
// a shell named "go": a stand-in for the go command of make handout's go
// run (procs.StopWithGoRun knows it by that name), which a test can kill
// alone.
func builtTool(t *testing.T) (bin, goRun string) {
	t.Helper()
	dir := t.TempDir()
	bin, goRun = filepath.Join(dir, "mwzk-handout"), filepath.Join(dir, "go")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build of mwzk-handout: %v\n%s", err, out)
	}
	if err := os.Symlink("/bin/sh", goRun); err != nil {
		t.Fatal(err)
	}
	return bin, goRun
}

// toolFolders are a run's temporary folder (its TMPDIR, where the tool
// unpacks its copy) and the archive it is to write.
func toolFolders(t *testing.T) (tmp, out string) {
	return t.TempDir(), filepath.Join(t.TempDir(), "aufgabe5.tar.gz")
}

// inRepo runs cmd in the repository's root with tmp as its TMPDIR, and no
// git repository found above tmp.
func inRepo(t *testing.T, cmd *exec.Cmd, tmp string) *exec.Cmd {
	cmd.Dir = repoRootT(t)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "GIT_CEILING_DIRECTORIES="+filepath.Dir(tmp))
	return cmd
}

// outputLines collects a subprocess's stdout and stderr line by line.
type outputLines struct {
	mu    sync.Mutex
	lines []string
	added chan struct{} // a token after each line
}

// watchOutput sends cmd's output to a new outputLines; it is read until
// the process has ended.
func watchOutput(t *testing.T, cmd *exec.Cmd) *outputLines {
	o := &outputLines{added: make(chan struct{}, 1)}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	t.Cleanup(func() { pw.Close() }) // after procs.Start's cleanup has reaped the process
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			o.mu.Lock()
			o.lines = append(o.lines, sc.Text())
			o.mu.Unlock()
			select {
			case o.added <- struct{}{}:
			default:
			}
		}
		io.Copy(io.Discard, pr) // a line past the scanner's limit must not block the process
	}()
	return o
}

// waitFor returns the rest of the first line starting with prefix, waiting
// for it until the process ends or two minutes have passed.
func (o *outputLines) waitFor(t *testing.T, p *procs.Proc, prefix string) string {
	t.Helper()
	deadline := time.After(2 * time.Minute)
	for {
		o.mu.Lock()
		for _, l := range o.lines {
			if rest, ok := strings.CutPrefix(l, prefix); ok {
				o.mu.Unlock()
				return strings.TrimSpace(rest)
			}
		}
		o.mu.Unlock()
		select {
		case <-o.added:
		case <-p.Done():
			t.Fatalf("the process ended (%v) before printing %q; output:\n%s", p.Err(), prefix, o.text())
		case <-deadline:
			t.Fatalf("no line %q within two minutes; output:\n%s", prefix, o.text())
		}
	}
}

func (o *outputLines) text() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.Join(o.lines, "\n")
}

// TestSecondSignalKillsTheStepAtOnce: a step stopped by Ctrl-C has
// stopGrace (10 s) to end on its own, and a second Ctrl-C in that time was
// swallowed: the user waited the whole grace for a step that ignores
// SIGINT. A second signal now kills the step's group at once. The step
// here ignores SIGINT (its sleep inherits that) and says when it runs.
func TestSecondSignalKillsTheStepAtOnce(t *testing.T) {
	sig := make(chan os.Signal, 1)
	listening := make(chan struct{})
	old := secondSignal
	secondSignal = func() (<-chan os.Signal, func()) {
		close(listening)
		return sig, func() {}
	}
	t.Cleanup(func() { secondSignal = old })
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := step{"a step that ignores SIGINT", []string{"sh", "-c", `trap "" INT; : > started; exec sleep 60`}}
	type result struct {
		err  error
		took time.Duration
	}
	done := make(chan result, 1)
	go func() {
		start := time.Now()
		_, err := run(ctx, dir, s, 0, io.Discard)
		done <- result{err, time.Since(start)}
	}()
	wait.For(t, "the step to start", 30*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(dir, "started"))
		return err == nil
	})
	cancel()
	<-listening
	sig <- syscall.SIGINT
	r := <-done
	if !errors.Is(r.err, errInterrupted) || !strings.Contains(r.err.Error(), "killed at once on a second signal") {
		t.Errorf("run = %v, want an interruption killed at once on a second signal", r.err)
	}
	if r.took >= stopGrace {
		t.Errorf("the step ended after %s, the whole grace (%s): the second signal was not heeded", r.took, stopGrace)
	}
}
