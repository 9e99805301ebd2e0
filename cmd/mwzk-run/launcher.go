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
	index   int // the peer's position in the launcher's peers
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
	c := &child{peerFile: p, index: i, cmd: cmd, copied: make(chan struct{}), running: true}
	go func() {
		defer close(c.copied)
		l.con.copyLines(l.con.prefix(i, p.name), r)
		r.Close()
	}()
	return c, nil
}

// run starts the peers, prints the banner, and then reacts to signals,
// to commands typed on cmds (kill N, restart N; commands.go) and to exits
// until every peer is gone. It returns the process's exit code: 0 when
// every peer stopped cleanly on request or was ended by a signal from
// outside (kill -9 of a peer is a demo, not a failure), 1 otherwise.
func (l *launcher) run(sigs <-chan os.Signal, input func() <-chan string) int {
	kids, err := l.start()
	if err != nil {
		l.con.say("%v", err)
		return 1
	}
	l.banner(kids)
	sv := &supervisor{l: l, kids: kids, exits: make(chan *child), live: len(kids)}
	for _, c := range kids {
		sv.watch(c)
	}
	// The input starts after the banner, so that what it says (in the
	// background, or ended) comes after the banner's "type commands".
	return sv.loop(sigs, input())
}

// supervisor is run's state: the current child of each peer, how many
// run, and what the stop has come to.
type supervisor struct {
	l        *launcher
	kids     []*child // by peer, in peer order; a restart replaces the entry
	exits    chan *child
	live     int
	stopping bool
	stopSig  os.Signal // the signal received that began the stop, and when
	stopAt   time.Time
	failed   int
	deadline <-chan time.Time
}

// watch reports c's exit on exits once its output has ended, so a peer's
// last lines come before the report of its exit.
func (sv *supervisor) watch(c *child) {
	go func() {
		<-c.copied
		c.err = c.cmd.Wait()
		sv.exits <- c
	}()
}

func (sv *supervisor) stop(sig os.Signal) {
	sv.stopping = true
	sv.deadline = time.After(sv.l.stopTimeout)
	sv.l.signalAll(sv.kids, sig)
}

// loop forwards the first signal, kills on the second or after
// stopTimeout, runs typed commands, and reports every exit.
func (sv *supervisor) loop(sigs <-chan os.Signal, cmds <-chan string) int {
	l := sv.l
	for sv.live > 0 {
		select {
		case sig := <-sigs:
			if sv.echo(sig) {
				continue
			}
			if sv.stopping {
				l.con.say("%v again: killing %s", sig, names(sv.kids))
				l.signalAll(sv.kids, syscall.SIGKILL)
				continue
			}
			l.con.say("%v: stopping %s (again to kill)", sig, names(sv.kids))
			sv.stop(sig)
			sv.stopSig, sv.stopAt = sig, time.Now()
		case line, ok := <-cmds:
			if !ok {
				cmds = nil // standard input ended: signals still work
				continue
			}
			sv.command(line)
		case c := <-sv.exits:
			cmds = sv.inputLeft(cmds)
			sv.exited(c, cmds != nil)
		case <-sv.deadline:
			l.con.say("still running %v after the stop: killing %s", l.stopTimeout, names(sv.kids))
			l.signalAll(sv.kids, syscall.SIGKILL)
			sv.deadline = nil
		}
	}
	if sv.failed > 0 {
		l.con.say("all peers gone; %d of %d did not stop cleanly (see above)", sv.failed, len(sv.kids))
		return 1
	}
	l.con.say("all peers stopped")
	return 0
}

// termEcho is how soon a second SIGTERM is taken as the first one's echo:
// make passes a SIGTERM on to its child, and kill %1 (or kill -TERM of the
// process group) sends one to both, so mwzk-run got two at once and killed
// the peers that the first had asked to stop (2 of 9 tries of a review).
const termEcho = time.Second

// echo tells whether sig is the first SIGTERM's echo, and says so. A
// second Ctrl-C still kills at once: make does not pass SIGINT on.
func (sv *supervisor) echo(sig os.Signal) bool {
	if !sv.stopping || sig != syscall.SIGTERM || sv.stopSig != syscall.SIGTERM || time.Since(sv.stopAt) >= termEcho {
		return false
	}
	sv.l.con.say("%v again at once: the same stop (make passes SIGTERM on); again after %v kills", sig, termEcho)
	return true
}

// inputLeft takes what is waiting on cmds before an exit is reported: the
// exit's hint offers "restart N" only while commands can be typed, and an
// input that ended (make run </dev/null) had been offered it after saying
// typed commands were off (two trials). It returns nil once cmds closed.
func (sv *supervisor) inputLeft(cmds <-chan string) <-chan string {
	for cmds != nil {
		select {
		case line, ok := <-cmds:
			if !ok {
				return nil
			}
			sv.command(line)
		default:
			return cmds
		}
	}
	return nil
}

func (sv *supervisor) exited(c *child, typing bool) {
	sv.live--
	c.running = false
	if !sv.l.report(c, sv.stopping, sv.live > 0, typing) {
		sv.failed++
	}
	if !sv.stopping && sv.l.stopOnFailure {
		sv.l.con.say("--stop-on-failure: stopping %s", names(sv.kids))
		sv.stop(syscall.SIGTERM)
	}
}

// report says how c ended and whether that counts against the run: a
// failure is a peer that exited on its own with an error, or did not stop
// cleanly when asked; a peer killed by a signal from outside is not.
func (l *launcher) report(c *child, stopping, othersRunning, typing bool) bool {
	pid := c.cmd.Process.Pid
	if !stopping {
		killed := killedFromOutside(c.err)
		hint := "no peer is left running, so the launcher ends"
		switch {
		case othersRunning && typing: // only then is there a launcher left to type into
			hint = fmt.Sprintf("type \"restart %d\" (and Enter) to start it again", c.index+1)
		case othersRunning:
			hint = fmt.Sprintf("typed commands are off (the input ended): Ctrl-C (or kill -INT %d) stops the others, and make run starts all again", syscall.Getpid())
		}
		l.con.say("%s (pid %d) exited unexpectedly: %s; %s", c.name, pid, status(c.err), hint)
		return killed
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

// killedFromOutside: the child died of a signal mwzk-run did not send
// (kill -9 from another terminal, or the kill command).
func killedFromOutside(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled()
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
