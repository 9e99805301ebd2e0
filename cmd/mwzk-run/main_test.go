package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"zablab/internal/ports"
	"zablab/properties"
)

// fakeEnv makes the test binary act as a fake mwzk-server (fakePeer), so
// the launcher's tests need no real server.
const fakeEnv = "MWZK_RUN_FAKE_PEER"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) == "1" {
		os.Exit(fakePeer(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakePeer plays mwzk-server: it prints a line to standard output and one
// to standard error, then waits for SIGINT or SIGTERM and exits 0 after a
// last line without a newline. Keys of its --config file steer it:
// fake.exit=N exits at once with status N; fake.ignoreStop=true ignores
// the signals (so only SIGKILL ends it).
func fakePeer(args []string) int {
	if len(args) < 2 || args[0] != "--config" {
		fmt.Fprintf(os.Stderr, "fake peer: want --config F ..., got %q\n", args)
		return 2
	}
	p, err := properties.LoadFile(args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake peer:", err)
		return 2
	}
	name := strings.TrimSuffix(filepath.Base(args[1]), ".properties")
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	fmt.Printf("fake %s up args=%s\n", name, strings.Join(args[2:], " "))
	fmt.Fprintf(os.Stderr, "fake %s on stderr\n", name)
	if code, _ := p.Int("fake.exit", -1); code >= 0 {
		return code
	}
	ignore, _ := p.Bool("fake.ignoreStop", false)
	for sig := range sigs {
		if !ignore {
			fmt.Printf("fake %s stopping on %v\nbye without newline", name, sig)
			return 0
		}
		fmt.Printf("fake %s ignoring %v\n", name, sig)
	}
	return 0
}

// syncBuffer is the console's writer in tests: written by the launcher's
// goroutines, read by the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// harness is one launcher over n fake peers, running in a goroutine.
type harness struct {
	t    *testing.T
	out  *syncBuffer
	sigs chan os.Signal
	cmds chan string
	code chan int
}

// launch writes n peer files (extra[i] appended to peer i+1's file) and
// runs a launcher on them with the test binary as the server.
func launch(t *testing.T, n int, extra map[int]string, tune func(*launcher)) *harness {
	t.Helper()
	return launchInput(t, n, extra, tune, nil)
}

// launchWith is launch with the typed commands from input(l) instead of
// the harness's cmds.
func launchWith(t *testing.T, n int, input func(*launcher) func() <-chan string) *harness {
	t.Helper()
	return launchInput(t, n, nil, nil, input)
}

func launchInput(t *testing.T, n int, extra map[int]string, tune func(*launcher), input func(*launcher) func() <-chan string) *harness {
	t.Helper()
	t.Setenv(fakeEnv, "1")
	dir := t.TempDir()
	cports, err := ports.Free(n)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		text := fmt.Sprintf("myid=%d\nclientPort=%d\n%s\n", i, cports[i-1], extra[i])
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("peer%d.properties", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	peers, err := findPeers(dir)
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, out: &syncBuffer{}, sigs: make(chan os.Signal, 2), cmds: make(chan string), code: make(chan int, 1)}
	l := &launcher{con: &console{w: h.out}, bin: self, extra: []string{"--impl", "solution"},
		peers: peers, stopTimeout: time.Minute}
	if tune != nil {
		tune(l)
	}
	cmds := func() <-chan string { return h.cmds }
	if input != nil {
		cmds = input(l)
	}
	go func() { h.code <- l.run(h.sigs, cmds) }()
	return h
}

// waitFor waits until the output has every one of lines, whole.
func (h *harness) waitFor(lines ...string) {
	h.t.Helper()
	var res []string
	for _, l := range lines {
		res = append(res, regexp.QuoteMeta(l))
	}
	h.waitMatch(res...)
}

// waitMatch waits until each regular expression matches a whole line of
// the output; on timeout it fails with the whole output.
func (h *harness) waitMatch(res ...string) {
	h.t.Helper()
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(20 * time.Second)
	for {
		out, missing := h.out.String(), ""
		for _, re := range res {
			if !regexp.MustCompile(`(?m)^` + re + `$`).MatchString(out) {
				missing = re
				break
			}
		}
		if missing == "" {
			return
		}
		select {
		case <-tick.C:
		case <-deadline:
			h.t.Fatalf("timed out waiting for a line matching %q; output:\n%s", missing, out)
		}
	}
}

// exitCode waits for the launcher to return.
func (h *harness) exitCode() int {
	h.t.Helper()
	select {
	case c := <-h.code:
		return c
	case <-time.After(20 * time.Second):
		h.t.Fatalf("launcher did not return; output:\n%s", h.out.String())
		return -1
	}
}

func upLines(n int) []string {
	var l []string
	for i := 1; i <= n; i++ {
		l = append(l, fmt.Sprintf("[peer%d] fake peer%d up args=--impl solution", i, i))
	}
	return l
}

// TestRunBuildsTheShellItOffers: the banner offers ./bin/mwzk-cli, so the
// targets that start the launcher build it (a clean clone had none).
func TestRunBuildsTheShellItOffers(t *testing.T) {
	out, err := exec.Command("make", "-n", "-C", "../..", "run-bins").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n run-bins: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "./cmd/mwzk-cli") {
		t.Errorf("make run-bins does not build ./cmd/mwzk-cli, which the banner offers:\n%s", out)
	}
}
