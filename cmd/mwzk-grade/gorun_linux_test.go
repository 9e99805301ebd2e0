package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"zablab/internal/wait"
)

// gorunRole is the environment variable that makes this test binary play
// a part of TestGraderStopsWhenItsGoRunDies: "parent" (the go command of
// `go run`, which starts the grader and waits for it) or "grader".
const gorunRole = "MWZK_GRADE_TEST_GORUN_ROLE"

// gorunRoleMain plays the role named in gorunRole, writing what the
// grader sees to the file named in gorunOut; false without a role.
func gorunRoleMain() bool {
	switch os.Getenv(gorunRole) {
	case "parent":
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), gorunRole+"=grader")
		_ = cmd.Run()
		return true
	case "grader":
		ctx, stop := interruptContext()
		defer stop()
		var sig int32
		syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_GET_PDEATHSIG, uintptr(unsafe.Pointer(&sig)), 0)
		appendLine(os.Getenv(gorunOut), fmt.Sprintf("ready %d %d", os.Getpid(), sig))
		select {
		case <-ctx.Done():
			appendLine(os.Getenv(gorunOut), "stopped")
		case <-time.After(2 * time.Minute):
		}
		return true
	}
	return false
}

const gorunOut = "MWZK_GRADE_TEST_GORUN_OUT"

func appendLine(file, line string) {
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		fmt.Fprintln(f, line)
		f.Close()
	}
}

// TestGraderStopsWhenItsGoRunDies: `make grade-all` runs the grader
// through `go run`; a SIGTERM to make alone reaches only the go command,
// which died of it and left the grader grading on, orphaned. A grader
// started by a process named "go" now gets SIGTERM when that dies, and
// stops as on Ctrl-C; one started by anything else (a script that puts it
// in the background and ends) is left alone.
func TestGraderStopsWhenItsGoRunDies(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"go", "script"} {
		dir, out := t.TempDir(), filepath.Join(t.TempDir(), "seen")
		exe := filepath.Join(dir, name)
		if err := os.WriteFile(exe, bin, 0o755); err != nil {
			t.Fatal(err)
		}
		parent := exec.Command(exe)
		parent.Env = append(os.Environ(), gorunRole+"=parent", gorunOut+"="+out)
		if err := parent.Start(); err != nil {
			t.Fatal(err)
		}
		var pid, sig int
		wait.For(t, "the grader under "+name+" ready", time.Minute, func() bool {
			b, _ := os.ReadFile(out)
			_, err := fmt.Sscanf(string(b), "ready %d %d", &pid, &sig)
			return err == nil
		})
		t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
		parent.Process.Kill()
		parent.Wait()
		switch name {
		case "go":
			if sig != int(syscall.SIGTERM) {
				t.Errorf("a grader started by go run has parent-death signal %d, want SIGTERM (%d)", sig, syscall.SIGTERM)
			}
			wait.For(t, "the grader stopping after its go run was killed", time.Minute, func() bool {
				b, _ := os.ReadFile(out)
				return strings.Contains(string(b), "stopped")
			})
		default:
			if sig != 0 {
				t.Errorf("a grader started by %q has parent-death signal %d, want none", name, sig)
			}
		}
	}
}
