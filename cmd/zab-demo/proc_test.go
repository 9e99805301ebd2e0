package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"zablab/internal/ports"
	"zablab/internal/procs"
	"zablab/internal/wait"
)

var demoBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "zab-demo-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	demoBin = filepath.Join(dir, "zab-demo")
	build := exec.Command("go", "build", "-race", "-o", demoBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building zab-demo:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc is one running zab-demo process and what it printed.
type proc struct {
	proc  *procs.Proc
	stdin io.WriteCloser
	mu    sync.Mutex
	lines []string // DELIVER messages since this process started
	state []string // its application state, as RESTORE/DELIVER lines imply
	lead  bool
	rest  []int // line counts of RESTORE lines
	hash  chan string
	done  chan struct{}
}

func (p *proc) read(out io.Reader) {
	defer close(p.done)
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), " ", 5)
		p.mu.Lock()
		switch f[0] {
		case "DELIVER":
			p.lines = append(p.lines, f[4])
		case "STATUS":
			p.lead = f[1] == "LEADING"
		case "RESTORE":
			var n int
			fmt.Sscan(f[2], &n)
			p.rest = append(p.rest, n)
		case "STATE":
			p.hash <- f[1] + " " + f[2]
		}
		p.mu.Unlock()
	}
}

func (p *proc) delivered() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.lines...)
}

func (p *proc) restored() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.rest) > 0
}

func (p *proc) leading() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lead
}

func (p *proc) send(line string) { fmt.Fprintln(p.stdin, line) }

// stateOf asks the process for its state's size and hash.
func (p *proc) stateOf(t *testing.T) string {
	p.send("!state")
	select {
	case h := <-p.hash:
		return h
	case <-time.After(10 * time.Second):
		t.Fatal("no answer to !state")
		return ""
	}
}

// cluster is n zab-demo processes with properties in a temporary folder.
type cluster struct {
	t     *testing.T
	dir   string
	procs []*proc
}

func newCluster(t *testing.T, n, snapCount int) *cluster {
	c := &cluster{t: t, dir: t.TempDir(), procs: make([]*proc, n)}
	ports, err := ports.Free(n)
	if err != nil {
		t.Fatal(err)
	}
	var peers strings.Builder
	for i, port := range ports {
		fmt.Fprintf(&peers, "peer%d=127.0.0.1:%d\n", i+1, port)
	}
	for i := 1; i <= n; i++ {
		text := fmt.Sprintf("myid=%d\n%sdataLogDir=data%d/log\ndataSnapDir=data%d/snap\ntickTime=20\ninitLimit=10\nsyncLimit=5\nsnapCount=%d\nlog.level=INFO\nlog.file=peer%d.log\n",
			i, peers.String(), i, i, snapCount, i)
		if err := os.WriteFile(c.file(i), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		c.stopAll()
		if t.Failed() {
			c.dumpLogs()
		}
	})
	return c
}

// dumpLogs prints the end of every peer's log, so a failure explains itself.
func (c *cluster) dumpLogs() {
	for i := range c.procs {
		b, _ := os.ReadFile(filepath.Join(c.dir, fmt.Sprintf("peer%d.log", i+1)))
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		c.t.Logf("peer%d.log (last %d of %d lines):\n%s", i+1, min(40, len(lines)), len(lines), strings.Join(lines[max(0, len(lines)-40):], "\n"))
	}
}

func (c *cluster) file(i int) string {
	return filepath.Join(c.dir, fmt.Sprintf("peer%d.properties", i))
}

func (c *cluster) start(i int) *proc {
	c.t.Helper()
	cmd := exec.Command(demoBin, "--config", c.file(i))
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	p := &proc{proc: procs.Start(c.t, cmd), stdin: stdin, hash: make(chan string, 1), done: make(chan struct{})}
	go p.read(stdout)
	c.procs[i-1] = p
	return p
}

// startAll starts every process and waits until one leads.
func (c *cluster) startAll() {
	c.t.Helper()
	for i := range c.procs {
		c.start(i + 1)
	}
	wait.For(c.t, "a leader", 20*time.Second, func() bool { return c.leader() != 0 })
}

// kill ends process i with SIGKILL, as a crash would.
func (c *cluster) kill(i int) {
	p := c.procs[i-1]
	p.proc.Kill()
	<-p.done
	c.procs[i-1] = nil
}

func (c *cluster) stopAll() {
	for i, p := range c.procs {
		if p == nil {
			continue
		}
		if !p.proc.Stop(20 * time.Second) {
			c.t.Errorf("peer %d did not stop within 20 s of SIGTERM; killed", i+1)
		}
		<-p.done
		c.procs[i] = nil
	}
}

func (c *cluster) leader() int {
	for i, p := range c.procs {
		if p != nil && p.leading() {
			return i + 1
		}
	}
	return 0
}

// hasAll reports whether every running process holds marker in its state.
// A process that installed a snapshot holds lines it never printed as
// DELIVER: it counts when its state equals that of a process that did
// deliver the marker.
func (c *cluster) hasAll(marker string) bool {
	var ref *proc
	var missing []*proc
	for _, p := range c.procs {
		switch {
		case p == nil:
		case contains(p.delivered(), marker):
			ref = p
		default:
			missing = append(missing, p)
		}
	}
	if ref == nil {
		return false
	}
	for _, p := range missing {
		if !p.restored() || p.stateOf(c.t) != ref.stateOf(c.t) {
			return false
		}
	}
	return true
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// commit sends marker lines from process i until one is delivered on every
// running process (a line in flight when a peer loses its leader may be
// lost, as the library documents). It returns the line that made it.
func (c *cluster) commit(i int, marker string) string {
	c.t.Helper()
	for attempt := 0; attempt < 20; attempt++ {
		line := fmt.Sprintf("%s#%d", marker, attempt)
		c.procs[i-1].send(line)
		deadline := time.Now().Add(2 * time.Second)
		for time.Now().Before(deadline) {
			if c.hasAll(line) {
				return line
			}
			<-time.After(5 * time.Millisecond)
		}
	}
	c.t.Fatalf("%s from peer %d never delivered everywhere", marker, i)
	return ""
}
