package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// launcher runs one ensemble: one child process per peer file.
type launcher struct {
	con           *console
	bin           string   // the server binary
	extra         []string // arguments after --config <file>
	peers         []peerFile
	stopOnFailure bool
	stopTimeout   time.Duration // after a stop, how long before SIGKILL
}

// child is one started peer process. Its fields after start are owned by
// the goroutine running launcher.run.
type child struct {
	peerFile
	cmd     *exec.Cmd
	copied  chan struct{} // closed when the child's output has ended
	running bool
	err     error // what Wait returned, set before the child is sent on exits
}

// start starts every peer; if one cannot start, the ones already started
// are killed and the error names the peer and its file.
func (l *launcher) start() ([]*child, error) {
	var kids []*child
	for i, p := range l.peers {
		c, err := l.startOne(i, p)
		if err != nil {
			for _, k := range kids {
				k.cmd.Process.Kill() //nolint:errcheck // best effort; its Wait below reaps it
				k.cmd.Wait()         //nolint:errcheck
			}
			return nil, err
		}
		kids = append(kids, c)
	}
	return kids, nil
}

func (l *launcher) startOne(i int, p peerFile) (*child, error) {
	args := append([]string{"--config", p.file}, l.extra...)
	cmd := exec.Command(l.bin, args...)
	cmd.SysProcAttr = sysProcAttr()
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%s (%s): %w", p.name, p.file, err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	err = cmd.Start()
	w.Close() // the child holds its own copy; r ends when the child does
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("%s (%s): starting %s: %w", p.name, p.file, l.bin, err)
	}
	c := &child{peerFile: p, cmd: cmd, copied: make(chan struct{}), running: true}
	go func() {
		defer close(c.copied)
		l.con.copyLines(l.con.prefix(i, p.name), r)
		r.Close()
	}()
	return c, nil
}

// run starts the peers, prints the banner, and then reacts to signals and
// exits until every peer is gone. It returns the process's exit code: 0
// when every peer stopped cleanly on request, 1 otherwise.
func (l *launcher) run(sigs <-chan os.Signal) int {
	kids, err := l.start()
	if err != nil {
		l.con.say("%v", err)
		return 1
	}
	l.banner(kids)
	exits := make(chan *child)
	for _, c := range kids {
		go func(c *child) {
			// Wait only after the copy, so a peer's last lines come
			// before the report of its exit.
			<-c.copied
			c.err = c.cmd.Wait()
			exits <- c
		}(c)
	}
	return l.supervise(kids, sigs, exits)
}

// supervise is run's loop: forward the first signal, kill on the second
// or after stopTimeout, report every exit.
func (l *launcher) supervise(kids []*child, sigs <-chan os.Signal, exits <-chan *child) int {
	live, stopping, failed := len(kids), false, 0
	var deadline <-chan time.Time
	stop := func(sig os.Signal) {
		stopping = true
		deadline = time.After(l.stopTimeout)
		l.signalAll(kids, sig)
	}
	for live > 0 {
		select {
		case sig := <-sigs:
			if stopping {
				l.con.say("%v again: killing %s", sig, names(kids))
				l.signalAll(kids, syscall.SIGKILL)
				continue
			}
			l.con.say("%v: stopping %s (again to kill)", sig, names(kids))
			stop(sig)
		case c := <-exits:
			live--
			c.running = false
			if !l.report(c, stopping) {
				failed++
			}
			if !stopping && l.stopOnFailure {
				l.con.say("--stop-on-failure: stopping %s", names(kids))
				stop(syscall.SIGTERM)
			}
		case <-deadline:
			l.con.say("still running %v after the stop: killing %s", l.stopTimeout, names(kids))
			l.signalAll(kids, syscall.SIGKILL)
			deadline = nil
		}
	}
	if failed > 0 {
		l.con.say("all peers gone; %d of %d did not stop cleanly (see above)", failed, len(kids))
		return 1
	}
	l.con.say("all peers stopped")
	return 0
}

// report says how c ended and whether that was clean: exit status 0, or
// the signal mwzk-run forwarded, while stopping.
func (l *launcher) report(c *child, stopping bool) bool {
	pid := c.cmd.Process.Pid
	if !stopping {
		l.con.say("%s (pid %d) exited unexpectedly: %s; restart it with: %s --config %s %s",
			c.name, pid, status(c.err), l.bin, c.file, strings.Join(l.extra, " "))
		return false
	}
	if c.err == nil || stoppedBySignal(c.err) {
		l.con.say("%s (pid %d) stopped: %s", c.name, pid, status(c.err))
		return true
	}
	l.con.say("%s (pid %d) did not stop cleanly: %s", c.name, pid, status(c.err))
	return false
}

func (l *launcher) signalAll(kids []*child, sig os.Signal) {
	for _, c := range kids {
		if c.running {
			c.cmd.Process.Signal(sig) //nolint:errcheck // it may have just exited; its exit is reported
		}
	}
}

// stoppedBySignal: the child died of SIGINT or SIGTERM, which it does when
// it has no handler for the signal mwzk-run forwarded.
func stoppedBySignal(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && (ws.Signal() == syscall.SIGINT || ws.Signal() == syscall.SIGTERM)
}

func status(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// names lists the running peers, e.g. "peer1, peer3".
func names(kids []*child) string {
	var n []string
	for _, c := range kids {
		if c.running {
			n = append(n, c.name)
		}
	}
	return strings.Join(n, ", ")
}
