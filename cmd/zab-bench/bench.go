package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"zablab/internal/ports"
)

// child is one peer process and its output.
type child struct {
	cmd    *exec.Cmd
	stdin  io.Writer
	lines  chan []string // output lines other than STATUS, split into fields
	mu     sync.Mutex
	status string
}

func (c *child) send(line string) { fmt.Fprintln(c.stdin, line) }

func (c *child) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "STATUS" {
			c.mu.Lock()
			c.status = f[1]
			c.mu.Unlock()
			continue
		}
		select {
		case c.lines <- f:
		default: // nobody waits: drop
		}
	}
}

func (c *child) role() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}

// expect waits for an output line starting with word.
func (c *child) expect(word string, d time.Duration) ([]string, error) {
	timeout := time.After(d)
	for {
		select {
		case f := <-c.lines:
			if len(f) > 0 && f[0] == word {
				return f, nil
			}
		case <-timeout:
			return nil, fmt.Errorf("no %s line within %s", word, d)
		}
	}
}

func bench(proposers []int, d time.Duration, failover bool, tickMs int) error {
	dir, err := os.MkdirTemp("", "zab-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	files, err := writeConfigs(dir, tickMs)
	if err != nil {
		return err
	}
	kids := make([]*child, len(files))
	defer func() {
		for _, k := range kids {
			if k != nil { // closing stdin ends a peer cleanly (its profile, if any, is written)
				k.stdin.(io.Closer).Close()
				done := make(chan struct{})
				go func() { _ = k.cmd.Wait(); close(done) }()
				select {
				case <-done:
				case <-time.After(5 * time.Second):
					_ = k.cmd.Process.Kill()
					<-done
				}
			}
		}
	}()
	for i, f := range files {
		if kids[i], err = startChild(f); err != nil {
			return err
		}
	}
	leader, err := waitSettled(kids)
	if err != nil {
		return err
	}
	fmt.Printf("zab-bench: tickTime=%dms syncLimit=5 initLimit=10\n", tickMs)
	for _, c := range proposers {
		kids[leader].send(fmt.Sprintf("load %d %f", c, d.Seconds()))
		f, err := kids[leader].expect("RESULT", d+time.Minute)
		if err != nil {
			return err
		}
		fmt.Printf("zab-bench: peers=3 size=1024 proposers=%d ops_per_s=%s p50_ms=%s p99_ms=%s\n", c, f[1], f[2], f[3])
	}
	if failover {
		return measureFailover(kids, leader)
	}
	return nil
}

// measureFailover kills the leader while a follower proposes every
// millisecond, and reports when that follower delivers under a new leader.
func measureFailover(kids []*child, leader int) error {
	f := (leader + 1) % len(kids)
	kids[f].send("trickle")
	time.Sleep(500 * time.Millisecond) // let the trickle run steadily before the kill
	kids[f].send("arm")
	if _, err := kids[f].expect("ARMED", 10*time.Second); err != nil {
		return err
	}
	t0 := time.Now().UnixNano()
	if err := kids[leader].cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return err
	}
	_ = kids[leader].cmd.Wait()
	kids[leader] = nil
	kids[f].send("report")
	line, err := kids[f].expect("FIRST", 30*time.Second)
	if err != nil {
		return err
	}
	at, _ := strconv.ParseInt(line[1], 10, 64)
	fmt.Printf("zab-failover: kill_to_first_delivery_ms=%.1f\n", float64(at-t0)/1e6)
	return nil
}

func startChild(config string) (*child, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "peer", config)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &child{cmd: cmd, stdin: stdin, lines: make(chan []string, 16)}
	go c.read(stdout)
	return c, nil
}

// waitSettled waits until one child leads and the others follow.
func waitSettled(kids []*child) (int, error) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		leader, following := -1, 0
		for i, k := range kids {
			switch k.role() {
			case "LEADING":
				leader = i
			case "FOLLOWING":
				following++
			}
		}
		if leader >= 0 && following == len(kids)-1 {
			return leader, nil
		}
		time.Sleep(10 * time.Millisecond) // polling the children's status lines
	}
	return -1, errors.New("the ensemble did not settle within 30 s")
}

// writeConfigs writes three peer files on free ports below 32768.
func writeConfigs(dir string, tickMs int) ([]string, error) {
	ports, err := ports.Free(3)
	if err != nil {
		return nil, err
	}
	var files []string
	for i := 1; i <= 3; i++ {
		text := fmt.Sprintf("myid=%d\npeer1=127.0.0.1:%d\npeer2=127.0.0.1:%d\npeer3=127.0.0.1:%d\n"+
			"dataLogDir=data%d\ntickTime=%d\ninitLimit=10\nsyncLimit=5\nlog.level=WARN\nlog.file=peer%d.log\n",
			i, ports[0], ports[1], ports[2], i, tickMs, i)
		f := filepath.Join(dir, fmt.Sprintf("peer%d.properties", i))
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}
