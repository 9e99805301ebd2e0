package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"zablab/properties"
	"zablab/zab"
)

// peer is the child process: one MultiZab whose application only counts
// deliveries and times its own proposals. It obeys commands on stdin:
//
//	load <proposers> <seconds>  closed-loop load; prints RESULT <ops/s> <p50 ms> <p99 ms>
//	trickle                     propose one message per millisecond until the process ends
//	arm                         start watching for a leader change
//	report                      prints FIRST <unix-ns>: the first delivery after this peer,
//	                            armed, went LOOKING (a delivery the old leader caused does not count)
type peer struct {
	id      uint64
	z       zab.Zab
	mu      sync.Mutex
	started map[uint64]time.Time // own proposals in flight, by seq
	done    map[uint64]chan struct{}
	early   map[uint64]time.Time // deliveries that beat their proposer's bookkeeping
	lat     []time.Duration
	armed   bool  // watching for a leader change
	looked  bool  // went LOOKING since armed
	firstAt int64 // Unix ns of the first delivery after that
	out     *bufio.Writer
}

func runPeer(config string) error {
	p0, err := properties.LoadFile(config)
	if err != nil {
		return err
	}
	id, _ := p0.Int("myid", 0)
	pr := &peer{id: uint64(id), started: map[uint64]time.Time{}, done: map[uint64]chan struct{}{}, early: map[uint64]time.Time{}, out: bufio.NewWriter(os.Stdout)}
	z, err := zab.NewMultiZab(pr, p0)
	if err != nil {
		return err
	}
	pr.z = z
	if err := z.Startup(); err != nil {
		return err
	}
	defer z.Shutdown()
	if dir := os.Getenv("ZAB_BENCH_PROFILE_DIR"); dir != "" { // CPU profile of each peer, for finding where time goes
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("peer%d.cpu", id)))
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		pr.command(strings.Fields(in.Text()))
	}
	return nil
}

func (pr *peer) say(format string, args ...any) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	fmt.Fprintf(pr.out, format+"\n", args...)
	pr.out.Flush()
}

func (pr *peer) command(f []string) {
	switch {
	case len(f) == 3 && f[0] == "load":
		n, _ := strconv.Atoi(f[1])
		secs, _ := strconv.ParseFloat(f[2], 64)
		go pr.load(n, time.Duration(secs*float64(time.Second)))
	case len(f) == 1 && f[0] == "trickle":
		go pr.trickle()
	case len(f) == 1 && f[0] == "arm":
		pr.mu.Lock()
		pr.armed, pr.looked, pr.firstAt = true, false, 0
		pr.mu.Unlock()
		pr.say("ARMED")
	case len(f) == 1 && f[0] == "report":
		go pr.report()
	}
}

// load runs n closed-loop proposers of 1 KiB messages for d.
func (pr *peer) load(n int, d time.Duration) {
	msg := make([]byte, 1024)
	var wg sync.WaitGroup
	var total atomic.Int64
	start := time.Now()
	stop := start.Add(d)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				if pr.proposeAndWait(msg) {
					total.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	pr.mu.Lock()
	lat := slices.Clone(pr.lat)
	pr.lat = nil
	pr.mu.Unlock()
	slices.Sort(lat)
	p := func(q float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[int(q*float64(len(lat)-1))]) / 1e6
	}
	pr.say("RESULT %.0f %.3f %.3f", float64(total.Load())/time.Since(start).Seconds(), p(0.50), p(0.99))
}

// proposeAndWait proposes msg and waits for its delivery here; a message
// lost with a leader is given up after a second.
func (pr *peer) proposeAndWait(msg []byte) bool {
	start := time.Now()
	c, err := pr.z.Propose(msg) // never under pr.mu: Deliver needs it meanwhile
	if err != nil {
		time.Sleep(time.Millisecond) // no leader: back off briefly before retrying
		return false
	}
	pr.mu.Lock()
	if at, ok := pr.early[c.Seq]; ok {
		delete(pr.early, c.Seq)
		pr.lat = append(pr.lat, at.Sub(start))
		pr.mu.Unlock()
		return true
	}
	ch := make(chan struct{})
	pr.started[c.Seq], pr.done[c.Seq] = start, ch
	pr.mu.Unlock()
	select {
	case <-ch:
		return true
	case <-time.After(time.Second):
		pr.mu.Lock()
		delete(pr.started, c.Seq)
		delete(pr.done, c.Seq)
		pr.mu.Unlock()
		return false
	}
}

func (pr *peer) trickle() {
	msg := make([]byte, 1024)
	t := time.NewTicker(time.Millisecond)
	for range t.C {
		_, _ = pr.z.Propose(msg)
	}
}

func (pr *peer) report() {
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for range t.C {
		pr.mu.Lock()
		at := pr.firstAt
		pr.mu.Unlock()
		if at != 0 {
			pr.say("FIRST %d", at)
			return
		}
	}
}

func (pr *peer) Deliver(id zab.TxnCookie, _ []byte) {
	now := time.Now()
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.armed && pr.looked && pr.firstAt == 0 {
		pr.firstAt = now.UnixNano()
	}
	if id.Proposer != pr.id {
		return
	}
	if t, ok := pr.started[id.Seq]; ok {
		pr.lat = append(pr.lat, now.Sub(t))
		close(pr.done[id.Seq])
		delete(pr.started, id.Seq)
		delete(pr.done, id.Seq)
	} else {
		pr.early[id.Seq] = now
	}
}

func (pr *peer) DeliverSync(zab.TxnCookie) {}

func (pr *peer) Status(s zab.Status, leader string) {
	pr.mu.Lock()
	if s == zab.Looking && pr.armed {
		pr.looked = true
	}
	pr.mu.Unlock()
	pr.say("STATUS %s %s", s, leader)
}

func (pr *peer) GetState(io.Writer) error { return nil }

func (pr *peer) SetState(io.Reader, zab.TxnCookie) error { return nil }
