package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/ports"
	"zablab/internal/procs"
	"zablab/internal/wait"
)

// bins are mwzk-server and mwzk-run, built once for the process test.
var bins string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "zab-trace-bins")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	build := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "zablab/cmd/mwzk-server", "zablab/cmd/mwzk-run")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building mwzk-server and mwzk-run:", err)
		os.Exit(1)
	}
	bins = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// syncBuf collects a process's output for the test to read.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// ensemble writes the properties of a 3-peer ensemble on free ports, as
// testdata/ensemble3 has them, and returns the folder and client ports.
func ensemble(t *testing.T, dir string) (string, []string) {
	t.Helper()
	pp, err := ports.Free(6)
	if err != nil {
		t.Fatal(err)
	}
	ens := filepath.Join(dir, "ensemble3")
	if err := os.MkdirAll(ens, 0o755); err != nil {
		t.Fatal(err)
	}
	var clients []string
	for i := 1; i <= 3; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "myid=%d\nclientPort=%d\ndataLogDir=../data/peer%d/log\n4lw.commands.whitelist=*\n", i, pp[2+i], i)
		for j := 1; j <= 3; j++ {
			fmt.Fprintf(&b, "peer%d=127.0.0.1:%d\n", j, pp[j-1])
		}
		b.WriteString("tickTime=100\ninitLimit=10\nsyncLimit=5\nlog.level=INFO\n")
		if err := os.WriteFile(filepath.Join(ens, fmt.Sprintf("peer%d.properties", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		clients = append(clients, fmt.Sprintf("127.0.0.1:%d", pp[2+i]))
	}
	return ens, clients
}

// proc is a process this test started; it dies with the test.
type proc struct {
	*procs.Proc
	out   *syncBuf
	stdin io.WriteCloser // the process's standard input (mwzk-run reads commands there)
}

func startProc(t *testing.T, name string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(name, args...)
	p := &proc{out: &syncBuf{}}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.stdin = in
	p.Proc = procs.Start(t, cmd)
	t.Cleanup(func() { p.stop(t) }) // before Start's cleanup: a gentle stop first
	return p
}

// stop sends SIGTERM and, if that is not enough within 20 s, SIGKILL.
func (p *proc) stop(t *testing.T) {
	if !p.Stop(20 * time.Second) {
		t.Errorf("%s did not stop on SIGTERM within 20 s; killed it", p.Cmd.Path)
	}
}

// state asks a peer's client port for its role (mntr's zk_server_state).
func state(addr string) string {
	nc, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return ""
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(2 * time.Second))
	_, _ = nc.Write([]byte("mntr"))
	out, _ := io.ReadAll(nc)
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "zk_server_state\t"); ok {
			return v
		}
	}
	return ""
}

func leaderOf(clients []string, skip int) int {
	for i, c := range clients {
		if i+1 != skip && state(c) == "leader" {
			return i + 1
		}
	}
	return 0
}

type nopLog struct{}

func (nopLog) Printf(string, ...any) {}

// write sets path to data through the peer at addr, creating it first if
// needed, retrying while the ensemble recovers.
func write(t *testing.T, addr, path, data string) {
	t.Helper()
	wait.For(t, fmt.Sprintf("writing %s on %s", path, addr), 30*time.Second, func() bool {
		c, _, err := zk.Connect([]string{addr}, 5*time.Second, zk.WithLogger(nopLog{}), zk.WithLogInfo(false))
		if err != nil {
			return false
		}
		defer c.Close()
		if _, err = c.Set(path, []byte(data), -1); err == zk.ErrNoNode {
			_, err = c.Create(path, []byte(data), 0, zk.WorldACL(zk.PermAll))
		}
		return err == nil
	})
}

var pidsRE = regexp.MustCompile(`started 3 peers \(peer1=(\d+) peer2=(\d+) peer3=(\d+)\)`)
var restartRE = regexp.MustCompile(`exited unexpectedly: .*; type "(restart \d+)"`)

// runKillRestart plays make run TRACE=1 with a kill -9 of the leader and
// a restart by the command mwzk-run suggests; it returns the trace folder
// and the killed leader's id.
// haveReference is set where the tree has the reference Service
// (reference_test.go).
var haveReference bool

func runKillRestart(t *testing.T) (string, int) {
	t.Helper()
	if !haveReference {
		t.Skip("the reference Service is not in this tree (a student's copy): there is no known-good run to draw")
	}
	dir := t.TempDir()
	ens, clients := ensemble(t, dir)
	traces := filepath.Join(dir, "trace")
	run := startProc(t, filepath.Join(bins, "mwzk-run"), "--ensemble", ens, "--bin", filepath.Join(bins, "mwzk-server"),
		"--impl", "solution", "--trace-dir", traces, "--color=false")
	t.Cleanup(func() { // the peers' logs say why a wait ran out
		if t.Failed() {
			out := run.out.String()
			t.Logf("mwzk-run's output (last 6000 bytes):\n%s", out[max(0, len(out)-6000):])
		}
	})
	var pids []string
	wait.For(t, "mwzk-run's banner", 30*time.Second, func() bool {
		m := pidsRE.FindStringSubmatch(run.out.String())
		pids = m
		return m != nil
	})
	var leader int
	wait.For(t, "a leader", 30*time.Second, func() bool { leader = leaderOf(clients, 0); return leader > 0 })
	follower := clients[leader%3]
	for i := 0; i < 3; i++ {
		write(t, follower, "/pic", fmt.Sprint("before", i))
	}
	var pid int
	fmt.Sscan(pids[leader], &pid)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil { // a child of this test's mwzk-run, by its PID
		t.Fatal(err)
	}
	var restart string
	wait.For(t, "mwzk-run to report the kill", 30*time.Second, func() bool {
		m := restartRE.FindStringSubmatch(run.out.String())
		if m != nil {
			restart = m[1]
		}
		return m != nil
	})
	wait.For(t, "a new leader", 30*time.Second, func() bool { return leaderOf(clients, leader) > 0 })
	write(t, follower, "/pic", "after the kill")
	if _, err := io.WriteString(run.stdin, restart+"\n"); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "the old leader to follow", 30*time.Second, func() bool { return state(clients[leader-1]) == "follower" })
	write(t, clients[leader-1], "/pic", "after the restart")
	run.stop(t)
	if !strings.Contains(run.out.String(), "make trace-html") {
		t.Errorf("mwzk-run did not say how to draw the traces:\n%s", run.out.String())
	}
	return traces, leader
}
