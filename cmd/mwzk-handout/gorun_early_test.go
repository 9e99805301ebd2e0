//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"zablab/internal/procs"
	"zablab/internal/wait"
)

// TestGoRunKilledDuringBuildStopsTheTool: a SIGTERM to make alone kills
// the go command of make handout's go run. Killed while the tool still
// packed the archive (before its check), the tool went on, orphaned, and
// ran the whole check (make test, make grade): it asked for the
// parent-death signal only as the check began, when its parent was gone.
// The tool's first output line is held back here (its stdout is a full
// pipe) until its "go" parent is dead, so the kill lands in the build.
// (The kernel names the wait in /proc/<pid>/task/*/wchan.)
func TestGoRunKilledDuringBuildStopsTheTool(t *testing.T) {
	if testing.Short() {
		t.Skip("packs the handout: skipped with -short")
	}
	bin, goRun := builtTool(t)
	pidFile := filepath.Join(t.TempDir(), "tool.pid")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	fillPipe(t, pw)
	tmp, out := toolFolders(t)
	// The "go" waits for the tool, as go run does; the tool's pid goes to a file.
	cmd := inRepo(t, exec.Command(goRun, "-c", `"$0" "$@" & echo $! >"$PIDFILE"; wait`, bin, "--out", out), tmp)
	cmd.Env = append(cmd.Env, "PIDFILE="+pidFile)
	cmd.Stdout, cmd.Stderr = pw, pw
	p := procs.Start(t, cmd) // its cleanup kills the group, the tool included
	pw.Close()
	var tool int
	wait.For(t, "the tool's pid", time.Minute, func() bool {
		b, _ := os.ReadFile(pidFile)
		tool, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && tool > 0
	})
	// Its first line waits in a write: the tool has started and is packing.
	wait.For(t, "the tool to block on its first line", time.Minute, func() bool { return writingToPipe(tool) })
	if err := p.Cmd.Process.Kill(); err != nil { // the go command alone
		t.Fatal(err)
	}
	wait.For(t, "the tool to lose its parent", time.Minute, func() bool { return parentOf(tool) != p.Cmd.Process.Pid })
	text := collect(pr) // the tool may write now
	wait.For(t, "the tool to stop after its go run was killed", time.Minute, func() bool {
		if syscall.Kill(tool, 0) != nil || parentOf(tool) == 0 {
			return true
		}
		if out := text(); strings.Contains(out, "handout: unpacked into") {
			t.Fatalf("the tool, orphaned during its build, started the check:\n%s", strings.TrimLeft(out, ".\n"))
		}
		return false
	})
}

// fillPipe writes into w until its buffer is full, so that the next write
// to it blocks until the other end is read.
func fillPipe(t *testing.T, w *os.File) {
	n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, w.Fd(), 1032 /* F_GETPIPE_SZ */, 0)
	if errno != 0 {
		t.Fatalf("F_GETPIPE_SZ: %v", errno)
	}
	if _, err := w.Write(bytes.Repeat([]byte{'.'}, int(n)-1)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("\n")); err != nil {
		t.Fatal(err)
	}
}

// writingToPipe says whether a thread of pid waits in a write to a full pipe.
func writingToPipe(pid int) bool {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/wchan", pid))
	for _, f := range tasks {
		if b, _ := os.ReadFile(f); strings.Contains(string(b), "pipe_write") {
			return true
		}
	}
	return false
}

// parentOf is pid's parent; 0 once pid is gone or a zombie.
func parentOf(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 2 || f[0] == "Z" {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// collect reads r until it ends, in the background; the text it returns
// gives what was read so far.
func collect(r io.Reader) (text func() string) {
	var mu sync.Mutex
	var got bytes.Buffer
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := r.Read(b)
			mu.Lock()
			got.Write(b[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return func() string { mu.Lock(); defer mu.Unlock(); return got.String() }
}
