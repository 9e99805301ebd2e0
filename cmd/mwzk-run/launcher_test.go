package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"zablab/internal/wait"
)

// TestStopOnSignal: every line of every peer arrives whole with its
// peer's prefix, the banner names the client ports, the forwarded signal
// stops all peers, and a clean stop exits 0.
func TestStopOnSignal(t *testing.T) {
	h := launch(t, 3, nil, nil)
	h.waitFor(upLines(3)...)
	h.waitFor("[peer1] fake peer1 on stderr", "[peer3] fake peer3 on stderr")
	h.sigs <- os.Interrupt
	if code := h.exitCode(); code != 0 {
		t.Fatalf("exit code %d after a clean stop, want 0; output:\n%s", code, h.out.String())
	}
	out := h.out.String()
	for _, want := range []string{
		"[peer2] fake peer2 stopping on interrupt",
		"[peer2] bye without newline",
		"mwzk-run: all peers stopped",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("output lacks line %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "mwzk-run:   make cli ") {
		t.Errorf("banner lacks make cli:\n%s", out)
	}
	if !regexp.MustCompile(`mwzk-cli -server 127\.0\.0\.1:\d+,127\.0\.0\.1:\d+,127\.0\.0\.1:\d+\n`).MatchString(out) {
		t.Errorf("banner lacks the three client addresses:\n%s", out)
	}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !regexp.MustCompile(`^(\[peer[1-3]\] |mwzk-run: )`).MatchString(line) {
			t.Errorf("line without a prefix: %q", line)
		}
		if m := regexp.MustCompile(`^\[(peer\d)\] fake (peer\d) `).FindStringSubmatch(line); m != nil && m[1] != m[2] {
			t.Errorf("line of %s prefixed as %s: %q", m[2], m[1], line)
		}
	}
}

// TestUnexpectedExit: a peer that dies on its own is reported with its
// status and the command that restarts it; the others keep running until
// stopped, and the launcher then exits 1.
func TestUnexpectedExit(t *testing.T) {
	h := launch(t, 3, map[int]string{2: "fake.exit=3"}, nil)
	h.waitFor(upLines(3)...)
	h.waitMatch(`mwzk-run: peer2 \(pid \d+\) exited unexpectedly: exit status 3; type "restart 2" \(and Enter\) to start it again`)
	select {
	case code := <-h.code:
		t.Fatalf("launcher returned %d while peer1 and peer3 should keep running:\n%s", code, h.out.String())
	default:
	}
	if strings.Contains(h.out.String(), "stopping on") {
		t.Fatalf("a peer was stopped after peer2 died without --stop-on-failure:\n%s", h.out.String())
	}
	h.sigs <- syscall.SIGTERM
	if code := h.exitCode(); code != 1 {
		t.Fatalf("exit code %d after a peer died, want 1; output:\n%s", code, h.out.String())
	}
	h.waitFor("[peer1] fake peer1 stopping on terminated", "[peer3] fake peer3 stopping on terminated",
		"mwzk-run: all peers gone; 1 of 3 did not stop cleanly (see above)")
}

// TestLastPeerGoneOffersNoRestart: when the only peer dies (a student's
// stub fails in Start), the launcher ends at once, so it must not ask for
// a "restart" nobody can type any more.
func TestLastPeerGoneOffersNoRestart(t *testing.T) {
	h := launch(t, 1, map[int]string{1: "fake.exit=3"}, nil)
	if code := h.exitCode(); code != 1 {
		t.Fatalf("exit code %d after the only peer died, want 1; output:\n%s", code, h.out.String())
	}
	h.waitMatch(`mwzk-run: peer1 \(pid \d+\) exited unexpectedly: exit status 3; no peer is left running, so the launcher ends`)
	if strings.Contains(h.out.String(), "restart 1") {
		t.Errorf("the launcher offered a restart after it ended:\n%s", h.out.String())
	}
}

// TestStopOnFailure: with --stop-on-failure one peer's death stops the
// others without any signal from outside.
func TestStopOnFailure(t *testing.T) {
	h := launch(t, 3, map[int]string{3: "fake.exit=1"}, func(l *launcher) { l.stopOnFailure = true })
	if code := h.exitCode(); code != 1 {
		t.Fatalf("exit code %d, want 1; output:\n%s", code, h.out.String())
	}
	// A peer may get the SIGTERM before it handles signals and die of it:
	// that is a clean stop too.
	h.waitMatch(`mwzk-run: --stop-on-failure: stopping peer1, peer2`,
		`mwzk-run: peer1 \(pid \d+\) stopped: (exit status 0|signal: terminated)`,
		`mwzk-run: peer2 \(pid \d+\) stopped: (exit status 0|signal: terminated)`)
}

// TestKillAfterTimeout: a peer that ignores the stop is killed after
// stopTimeout, and that stop does not count as clean.
func TestKillAfterTimeout(t *testing.T) {
	h := launch(t, 2, map[int]string{1: "fake.ignoreStop=true"}, func(l *launcher) { l.stopTimeout = 100 * time.Millisecond })
	h.waitFor(upLines(2)...)
	h.sigs <- os.Interrupt
	if code := h.exitCode(); code != 1 {
		t.Fatalf("exit code %d, want 1; output:\n%s", code, h.out.String())
	}
	h.waitFor("[peer1] fake peer1 ignoring interrupt", "[peer2] fake peer2 stopping on interrupt")
	h.waitMatch(`mwzk-run: peer1 \(pid \d+\) did not stop cleanly: signal: killed`)
}

// TestSecondSignalKills: a second Ctrl-C kills what is left at once.
func TestSecondSignalKills(t *testing.T) {
	h := launch(t, 2, map[int]string{2: "fake.ignoreStop=true"}, nil)
	h.waitFor(upLines(2)...)
	h.sigs <- os.Interrupt
	h.waitFor("[peer2] fake peer2 ignoring interrupt")
	h.waitMatch(`mwzk-run: peer1 \(pid \d+\) stopped: exit status 0`)
	h.sigs <- os.Interrupt
	if code := h.exitCode(); code != 1 {
		t.Fatalf("exit code %d, want 1; output:\n%s", code, h.out.String())
	}
	h.waitFor("mwzk-run: interrupt again: killing peer2")
}

// TestStartFailure: a server binary that cannot start is reported with
// the peer and its file.
func TestStartFailure(t *testing.T) {
	h := launch(t, 2, nil, func(l *launcher) { l.bin = filepath.Join(t.TempDir(), "no-such-server") })
	if code := h.exitCode(); code != 1 {
		t.Fatalf("exit code %d, want 1; output:\n%s", code, h.out.String())
	}
	if !regexp.MustCompile(`mwzk-run: peer1 \(.*peer1\.properties\): starting .*no-such-server: .*no such file`).MatchString(h.out.String()) {
		t.Fatalf("unclear start failure:\n%s", h.out.String())
	}
}

// TestFindPeers: peer files are ordered by number (peer10 after peer2),
// other files are ignored, and an empty or missing folder is an error
// naming it.
func TestFindPeers(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"peer10.properties", "peer2.properties", "peer1.properties", "peer-old.properties", "README.md"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("clientPort=12345\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	peers, err := findPeers(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range peers {
		got = append(got, p.name)
		if p.clientPort != 12345 {
			t.Errorf("%s: clientPort %d, want 12345", p.name, p.clientPort)
		}
	}
	if strings.Join(got, " ") != "peer1 peer2 peer10" {
		t.Errorf("peers %q, want peer1 peer2 peer10", got)
	}
	if _, err := findPeers(t.TempDir()); !errors.Is(err, ErrNoPeers) {
		t.Errorf("empty folder: %v, want ErrNoPeers", err)
	}
	missing := filepath.Join(dir, "missing")
	if _, err := findPeers(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing folder: %v, want an error naming %s", err, missing)
	}
}

// TestKillAndRestartCommands: "kill 2" kills peer2 with SIGKILL, "restart
// 2" starts it again under the launcher (its lines prefixed, stopped by
// Ctrl-C), and a Ctrl-C after the demo ends with exit code 0.
func TestKillAndRestartCommands(t *testing.T) {
	h := launch(t, 3, nil, nil)
	h.waitFor(upLines(3)...)
	h.cmds <- "restart 2"
	h.waitMatch(`mwzk-run: peer2 runs \(pid \d+\): kill 2 first`)
	h.cmds <- "kill peer2"
	h.waitMatch(`mwzk-run: peer2 \(pid \d+\) exited unexpectedly: signal: killed; type "restart 2" \(and Enter\) to start it again`)
	h.cmds <- "restart 2"
	h.waitMatch(`mwzk-run: restarted peer2 \(pid \d+\)`)
	wait.For(t, "the restarted peer2's first line", 20*time.Second, func() bool {
		return strings.Count(h.out.String(), "[peer2] fake peer2 up") == 2
	})
	h.cmds <- "kill 7"
	h.waitFor("mwzk-run: kill 7: no such peer (1..3); " + commandHelp)
	h.sigs <- os.Interrupt
	if code := h.exitCode(); code != 0 {
		t.Fatalf("exit code %d after kill, restart and Ctrl-C, want 0; output:\n%s", code, h.out.String())
	}
	h.waitFor("[peer2] fake peer2 stopping on interrupt", "mwzk-run: all peers stopped")
}

// TestOnePeerBanner: one peer is "1 peer", and make cli is told where it
// listens.
func TestOnePeerBanner(t *testing.T) {
	h := launch(t, 1, nil, nil)
	h.waitFor(upLines(1)...)
	h.waitMatch(`mwzk-run: started 1 peer \(peer1=\d+\); Ctrl-C stops them all`,
		`mwzk-run:   make cli SERVER=127\.0\.0\.1:\d+ .*`)
	h.sigs <- os.Interrupt
	if code := h.exitCode(); code != 0 {
		t.Fatalf("exit code %d, want 0", code)
	}
}

// TestSecondRunRefused: an ensemble whose client port is taken is refused
// in one line naming the port and the peer; a bogus --impl is refused
// before anything starts.
func TestSecondRunRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	err = portsFree("ens", []peerFile{{name: "peer1"}, {name: "peer2", clientPort: port}})
	want := fmt.Sprintf("127.0.0.1:%d (clientPort of peer2) is in use: is the ensemble ens running already?", port)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("portsFree = %v, want %q", err, want)
	}
	if err := checkImpl("bogus"); err == nil || !strings.Contains(err.Error(), `--impl "bogus"`) {
		t.Errorf("checkImpl(bogus) = %v", err)
	}
	if err := checkImpl("assignment"); err != nil {
		t.Errorf("checkImpl(assignment) = %v", err)
	}
}

// TestUnknownCommandIsNamed: a line the launcher does not understand
// ("frobnicate", a "kill" without its peer) is named in the answer; it got
// the bare command list, as "help" does, and the operator could not tell
// whether the line had been read at all.
func TestUnknownCommandIsNamed(t *testing.T) {
	h := launch(t, 3, nil, nil)
	h.waitFor(upLines(3)...)
	h.cmds <- "frobnicate"
	h.waitFor(`mwzk-run: "frobnicate" is not a command; ` + commandHelp)
	h.cmds <- "kill"
	h.waitFor(`mwzk-run: "kill" needs one peer number; ` + commandHelp)
	h.sigs <- os.Interrupt
	if code := h.exitCode(); code != 0 {
		t.Fatalf("exit code %d, want 0; output:\n%s", code, h.out.String())
	}
}

// TestDoubledTermIsOneStop: kill %1 on make run & sends SIGTERM to make
// and mwzk-run, and make passes its own on: two at once are one stop, not
// a stop and a kill. A different signal after them still kills.
func TestDoubledTermIsOneStop(t *testing.T) {
	h := launch(t, 2, map[int]string{2: "fake.ignoreStop=true"}, nil)
	h.waitFor(upLines(2)...)
	h.sigs <- syscall.SIGTERM
	h.sigs <- syscall.SIGTERM
	h.waitFor("mwzk-run: terminated again at once: the same stop (make passes SIGTERM on); again after 1s kills")
	h.waitMatch(`mwzk-run: peer1 \(pid \d+\) stopped: exit status 0`)
	h.sigs <- os.Interrupt
	if code := h.exitCode(); code != 1 {
		t.Fatalf("exit code %d, want 1; output:\n%s", code, h.out.String())
	}
	h.waitFor("mwzk-run: interrupt again: killing peer2")
	if strings.Contains(h.out.String(), "terminated again: killing") {
		t.Errorf("the doubled SIGTERM killed the peers:\n%s", h.out.String())
	}
}

// TestEndedInputOffersNoRestart: a peer that dies after the input ended
// (make run </dev/null, or started by a script) is reported without the
// "type restart N" that nobody can type any more; the launcher had said
// typed commands were off and then offered one (two trials).
func TestEndedInputOffersNoRestart(t *testing.T) {
	closed := func(*launcher) func() <-chan string {
		return func() <-chan string {
			ch := make(chan string)
			close(ch)
			return ch
		}
	}
	h := launchInput(t, 3, map[int]string{2: "fake.exit=3"}, nil, closed)
	h.waitMatch(`mwzk-run: peer2 \(pid \d+\) exited unexpectedly: exit status 3; typed commands are off \(the input ended\): Ctrl-C \(or kill -INT \d+\) stops the others, and make run starts all again`)
	if strings.Contains(h.out.String(), "restart 2") {
		t.Errorf("a restart was offered after the input ended:\n%s", h.out.String())
	}
	h.sigs <- os.Interrupt
	if code := h.exitCode(); code != 1 {
		t.Fatalf("exit code %d after a peer died, want 1; output:\n%s", code, h.out.String())
	}
}

// TestInputLeftSeesAnEndedInput: before an exit is reported, an input that
// ended is noticed even when the exit came first in the select.
func TestInputLeftSeesAnEndedInput(t *testing.T) {
	sv := &supervisor{}
	closed := make(chan string)
	close(closed)
	if got := sv.inputLeft(closed); got != nil {
		t.Error("an ended input is still taken for one")
	}
	open := make(chan string)
	if got := sv.inputLeft(open); got == nil {
		t.Error("an open input with nothing waiting is taken for ended")
	}
}
