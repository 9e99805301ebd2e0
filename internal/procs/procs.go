package procs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Proc is a started child process that the test owns.
type Proc struct {
	Cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// Own makes cmd's process a group leader of its own that dies with this
// process. Call it before cmd.Start; Start and Run do.
func Own(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	ownAttrs(cmd.SysProcAttr)
	if cmd.WaitDelay == 0 { // a grandchild holding the output pipe must not block Wait
		cmd.WaitDelay = 5 * time.Second
	}
}

// KillGroup sends SIGKILL to every process of cmd's group. A group that is
// already gone is no error.
func KillGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// Start starts cmd as a child the test owns: it is killed, with its whole
// group, when the test ends.
func Start(t testing.TB, cmd *exec.Cmd) *Proc {
	t.Helper()
	p, err := Launch(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	return p
}

// Launch starts cmd as an owned child (Own) and reaps it in the
// background; the caller ends it with Kill or Stop. Programs use it where
// tests use Start.
func Launch(cmd *exec.Cmd) (*Proc, error) {
	Own(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	p := &Proc{Cmd: cmd, done: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	return p, nil
}

// Done is closed once the process has exited and been reaped.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Err is the result of Wait; valid once Done is closed.
func (p *Proc) Err() error { <-p.done; return p.err }

// Exited reports whether the process has ended.
func (p *Proc) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Kill ends the process group at once and waits until the leader is reaped.
func (p *Proc) Kill() {
	_ = KillGroup(p.Cmd)
	_ = p.Cmd.Process.Kill() // in case it left its group
	<-p.done
}

// Stop sends SIGTERM to the process and, if it has not ended within d,
// kills its group. It reports whether SIGTERM alone was enough.
func (p *Proc) Stop(d time.Duration) bool {
	if p.Exited() {
		_ = KillGroup(p.Cmd) // children it may have left
		return true
	}
	_ = p.Cmd.Process.Signal(syscall.SIGTERM)
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-p.done:
		_ = KillGroup(p.Cmd)
		return true
	case <-timer.C:
		p.Kill()
		return false
	}
}

// CommandContext is exec.CommandContext for a child the test owns: the
// context's end kills the whole group, not only its leader.
func CommandContext(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	Own(cmd)
	cmd.Cancel = func() error { return KillGroup(cmd) }
	return cmd
}

// Run runs cmd to its end or until d has passed, whichever is first, and
// returns its combined output. On the deadline the whole group is killed
// and the error wraps ErrDeadline.
func Run(cmd *exec.Cmd, d time.Duration) ([]byte, error) {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	Own(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var expired atomic.Bool
	timer := time.AfterFunc(d, func() {
		expired.Store(true)
		_ = KillGroup(cmd)
		_ = cmd.Process.Kill() // in case it left its group
	})
	err := cmd.Wait()
	timer.Stop()
	_ = KillGroup(cmd) // whatever it left behind in its group
	if expired.Load() {
		return out.Bytes(), fmt.Errorf("%w: %s still running after %v; killed", ErrDeadline, cmd.Path, d)
	}
	return out.Bytes(), err
}

// ErrDeadline marks a Run that did not end in time.
var ErrDeadline = errors.New("deadline")
