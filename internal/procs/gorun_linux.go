package procs

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// StopWithGoRun has the kernel send this process SIGTERM (an interrupt,
// as Ctrl-C) when the `go run` that started it dies. The make targets run
// the grader and the handout's builder through `go run`, and a SIGTERM to
// make alone (kill, a job system) reaches only make's child, the go
// command, which dies of it and leaves the tool behind, orphaned and still
// writing beside a rerun. Only a parent named "go" counts: that one lives
// until the tool ends unless it is killed, while a shell script that
// starts the tool in the background and ends is no reason to stop. Call it
// after the SIGTERM handler is in place: a parent already gone is answered
// with the signal at once. It returns the signal set (0 for none).
func StopWithGoRun() syscall.Signal {
	ppid := os.Getppid()
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", ppid))
	if err != nil || strings.TrimSpace(string(comm)) != "go" {
		return 0
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0); e != 0 {
		return 0
	}
	if os.Getppid() != ppid { // it died before the kernel was asked
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
	}
	return syscall.SIGTERM
}
