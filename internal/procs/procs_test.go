package procs

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"zablab/internal/wait"
)

// alive reports whether a process with this pid exists (and is not a zombie
// we have yet to reap: those are reaped by Start's Wait).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}

// TestCleanupKillsGrandchild starts a shell that starts a sleeper in the
// background: the test's cleanup must end both, as zkCli.sh's java must end
// with the script.
func TestCleanupKillsGrandchild(t *testing.T) {
	var grandchild int
	t.Run("owner", func(t *testing.T) {
		cmd := exec.Command("sh", "-c", "sleep 300 & echo $!; wait")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		p := Start(t, cmd)
		buf := make([]byte, 32)
		n, err := out.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		grandchild, err = strconv.Atoi(strings.TrimSpace(string(buf[:n])))
		if err != nil {
			t.Fatalf("pid %q: %v", buf[:n], err)
		}
		if p.Exited() || !alive(grandchild) {
			t.Fatal("the shell or its sleeper ended early")
		}
	})
	wait.For(t, "the grandchild to be gone after the subtest's cleanup", 5*time.Second, func() bool { return !alive(grandchild) })
}

func TestRunDeadlineKillsGroup(t *testing.T) {
	start := time.Now()
	out, err := Run(exec.Command("sh", "-c", "echo started; sleep 300 & wait"), 300*time.Millisecond)
	if !errors.Is(err, ErrDeadline) {
		t.Fatalf("err %v, want ErrDeadline", err)
	}
	if !strings.Contains(string(out), "started") {
		t.Errorf("output %q lacks what the child printed", out)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Run returned after %v; the sleeper kept its pipe open", d)
	}
}

func TestRunExitStatus(t *testing.T) {
	out, err := Run(exec.Command("sh", "-c", "echo hi; exit 3"), 10*time.Second)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 || string(out) != "hi\n" {
		t.Fatalf("out %q err %v, want hi and exit 3", out, err)
	}
}

func TestStopUsesSigterm(t *testing.T) {
	p := Start(t, exec.Command("sh", "-c", "trap 'exit 0' TERM; while :; do sleep 0.05; done"))
	// the trap must be in place before the signal: wait for the loop's first sleeper
	wait.For(t, "the shell's loop", 5*time.Second, func() bool { return hasChild(p.Cmd.Process.Pid) })
	if !p.Stop(5 * time.Second) {
		t.Fatal("SIGTERM was not enough for a shell that exits on TERM")
	}
	if p.Err() != nil {
		t.Fatalf("exit %v, want 0", p.Err())
	}
}

func hasChild(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/children")
	return err == nil && strings.TrimSpace(string(b)) != ""
}
