package interop

import (
	"io"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"zablab/internal/procs"
)

// cliMt is one running cli_mt, ZooKeeper's C shell, driven a command at
// a time: it answers asynchronously, so each command waits for the
// answer it expects before the next is sent.
type cliMt struct {
	t     *testing.T
	name  string
	cmd   *exec.Cmd
	proc  *procs.Proc
	stdin io.WriteCloser
	mu    sync.Mutex
	out   strings.Builder
}

func (c *cliMt) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.Write(p)
}

func (c *cliMt) output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.String()
}

func startCliMt(t *testing.T, name, addr string) *cliMt {
	t.Helper()
	c := &cliMt{t: t, name: name, cmd: exec.Command(cliMtPath, "-h", addr)}
	c.cmd.Stdout, c.cmd.Stderr = c, c
	var err error
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	c.proc = procs.Start(t, c.cmd)
	c.expect(0, `Got a new session id: 0x[0-9a-f]+\n`)
	return c
}

// do sends one command and waits until the output it causes matches re.
func (c *cliMt) do(command, re string) {
	c.t.Helper()
	from := len(c.output())
	if _, err := io.WriteString(c.stdin, command+"\n"); err != nil {
		c.t.Fatalf("%s: sending %q: %v", c.name, command, err)
	}
	c.expect(from, re)
}

// expect waits until the output after offset from matches re.
func (c *cliMt) expect(from int, re string) {
	c.t.Helper()
	rx := regexp.MustCompile(re)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(20 * time.Second)
	for {
		out := c.output()
		if rx.MatchString(out[from:]) {
			return
		}
		select {
		case <-tick.C:
		case <-deadline:
			c.t.Fatalf("%s: no output matching %q; output:\n%s", c.name, re, out)
		}
	}
}

// quit ends the shell, which closes its session.
func (c *cliMt) quit() {
	c.t.Helper()
	c.do("quit", `Quitting...`)
	select {
	case <-c.proc.Done():
		if err := c.proc.Err(); err != nil {
			c.t.Fatalf("%s: quit: %v; output:\n%s", c.name, err, c.output())
		}
	case <-time.After(20 * time.Second):
		c.t.Fatalf("%s: still running 20 s after quit; output:\n%s", c.name, c.output())
	}
}

// TestCliMt: Debian's C client creates, reads, updates and deletes znodes
// on one peer, gets the data watch its get set, ZooKeeper's error codes
// (ZNOTEMPTY -111, ZNONODE -101, ZNODEEXISTS -110), and sees the result
// on another peer after a sync, without the first session's ephemeral.
func TestCliMt(t *testing.T) {
	need(t, "ZooKeeper's C client cli_mt", "zookeeper-bin", executable(cliMtPath))
	addrs := startTarget(t)
	c := startCliMt(t, "cli_mt on peer1", addrs[0])
	c.do("create /climt", `\[/climt\]: rc = 0\n\tname = /climt\n`)
	c.do("get /climt", `/climt: rc = 0\n value_len = 3\nnew\nStat:\n(?:.*\n)*?\tversion=0\t`)
	// The get left a data watch: its event comes before the set's answer.
	c.do("set /climt hello", `(?s)Watcher CHANGED_EVENT state = CONNECTED_STATE for path /climt\n.*/climt: rc = 0 Stat:\n(?:.*\n)*?\tversion=1\t`)
	c.do("get /climt", `/climt: rc = 0\n value_len = 5\nhello\n`)
	c.do("create +e /climt/eph", `\[/climt/eph\]: rc = 0\n\tname = /climt/eph\n`)
	c.do("create +s /climt/seq-", `\[/climt/seq-\]: rc = 0\n\tname = /climt/seq-0000000001\n`)
	c.do("ls /climt", `/climt: rc = 0\n\teph\n\tseq-0000000001\n`)
	c.do("delete /climt", `/climt: rc = -111\n`)
	c.do("delete /missing", `/missing: rc = -101\n`)
	c.do("create /climt", `\[/climt\]: rc = -110\n`)
	c.do("exists /missing", `Error -101 for /missing\n`)
	c.quit()

	d := startCliMt(t, "cli_mt on peer3", addrs[2])
	d.do("sync /climt", `\[/climt\]: rc = 0\n`)
	d.do("ls /climt", `/climt: rc = 0\n\tseq-0000000001\n`)
	d.do("exists /climt/eph", `Error -101 for /climt/eph\n`)
	d.do("delete /climt/seq-0000000001", `/climt/seq-0000000001: rc = 0\n`)
	d.do("delete /climt", `/climt: rc = 0\n`)
	d.do("ls /", `/: rc = 0\n\tzookeeper\n`)
	d.quit()
}
