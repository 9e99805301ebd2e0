package lincheck

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"zablab/mwzookeeper"
)

// lagCluster is a fake ensemble whose leader (replica 1) keeps answering
// writes for a moment after its Stop began, as a real replica does while
// it shuts down, and after which no leader is ever elected: no write
// succeeds without replica 1.
type lagCluster struct {
	mu       sync.Mutex
	nodes    map[string]int32 // path -> version
	stopping bool
	stopped  bool
	lagOK    int           // writes replica 1 answered with success while stopping
	lagged   chan struct{} // closed after two of them
	session  int64
	ops      int           // calls answered before the stop began
	began    chan struct{} // closed when the stop begins
}

// gateOps calls are answered before the stop begins; later ones wait for
// it. Its answers are instant, so without the gate a client could spend
// all its operations while the test waits to call Stop (a make test under
// load did), and none would be left to be answered while stopping.
const gateOps = 100

// gate holds a call that comes after gateOps until the stop begins (at
// most 10 s, so a test that fails earlier cannot hang on it). c.mu is held.
func (c *lagCluster) gate() {
	if c.stopping {
		return
	}
	if c.ops++; c.ops <= gateOps {
		return
	}
	c.mu.Unlock()
	select {
	case <-c.began:
	case <-time.After(10 * time.Second):
	}
	c.mu.Lock()
}

func (c *lagCluster) N() int { return 3 }

func (c *lagCluster) Serves(i int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return i != 1 || !c.stopped
}

func (c *lagCluster) DoAsync(i int, req *mwzookeeper.Request) <-chan *mwzookeeper.Response {
	ch := make(chan *mwzookeeper.Response, 1)
	ch <- c.do(i, req)
	return ch
}

func (c *lagCluster) do(i int, req *mwzookeeper.Request) *mwzookeeper.Response {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gate()
	loss := &mwzookeeper.Response{Err: mwzookeeper.ErrConnectionLoss}
	if i == 1 && c.stopped {
		return loss
	}
	switch req.Op {
	case mwzookeeper.OpCreateSession:
		c.session++
		return &mwzookeeper.Response{Session: c.session, Password: []byte("pw")}
	case mwzookeeper.OpReconnect:
		return &mwzookeeper.Response{Session: req.Session, Password: []byte("pw")}
	case mwzookeeper.OpGetData:
		v, ok := c.nodes[req.Path]
		if !ok {
			return &mwzookeeper.Response{Err: mwzookeeper.ErrNoNode}
		}
		return &mwzookeeper.Response{Stat: mwzookeeper.MWStat{Version: v}}
	}
	// Writes (and sync) need the leader.
	if c.stopped {
		return loss
	}
	r := c.write(req)
	if i == 1 && c.stopping && r.Err == nil && req.Op != mwzookeeper.OpSync {
		if c.lagOK++; c.lagOK == 2 {
			close(c.lagged)
		}
	}
	return r
}

func (c *lagCluster) write(req *mwzookeeper.Request) *mwzookeeper.Response {
	v, ok := c.nodes[req.Path]
	switch req.Op {
	case mwzookeeper.OpSync:
		return &mwzookeeper.Response{}
	case mwzookeeper.OpCreate:
		if ok {
			return &mwzookeeper.Response{Err: mwzookeeper.ErrNodeExists}
		}
		c.nodes[req.Path] = 0
		return &mwzookeeper.Response{}
	}
	if !ok {
		return &mwzookeeper.Response{Err: mwzookeeper.ErrNoNode}
	}
	if req.Version != -1 && req.Version != v {
		return &mwzookeeper.Response{Err: mwzookeeper.ErrBadVersion}
	}
	if req.Op == mwzookeeper.OpDelete {
		delete(c.nodes, req.Path)
		return &mwzookeeper.Response{}
	}
	c.nodes[req.Path] = v + 1
	return &mwzookeeper.Response{Stat: mwzookeeper.MWStat{Version: v + 1}}
}

// fatalTB records Fatalf and ends the goroutine, as testing.T does.
type fatalTB struct {
	testing.TB
	mu    sync.Mutex
	fatal []string
}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.mu.Lock()
	f.fatal = append(f.fatal, fmt.Sprintf(format, args...))
	f.mu.Unlock()
	runtime.Goexit()
}

// TestFailoverWaitsForAWriteAfterTheStopNotDuringIt: UnderFailover takes
// its "a new leader" evidence from any write called after h.Now() read
// just *before* f.Stop. A write the old leader answers while its Stop is
// still under way passes for a new leader's, and the replica is restarted
// although no other replica ever took a write: the run tests no failover
// and says nothing. It must fail ("no write was answered with success
// after replica 1 (the leader) stopped") instead.
func TestFailoverWaitsForAWriteAfterTheStopNotDuringIt(t *testing.T) {
	cl := &lagCluster{nodes: map[string]int32{}, lagged: make(chan struct{}), began: make(chan struct{})}
	var restarted atomic.Bool
	ft := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		UnderFailover(ft, Failover{
			Cluster: cl, History: NewHistory(), Seed: 1, Clients: 3, MaxOps: 300, PerLeg: 20,
			Leader: func() int { return 1 },
			Stop: func(i int) {
				cl.mu.Lock()
				cl.stopping = true
				close(cl.began)
				cl.mu.Unlock()
				select { // the replica shuts down: it still answers a few writes
				case <-cl.lagged:
				case <-time.After(10 * time.Second):
					t.Errorf("replica 1 answered no write while stopping")
				}
				cl.mu.Lock()
				cl.stopped = true
				cl.mu.Unlock()
			},
			Restart: func(i int) {
				restarted.Store(true)
				runtime.Goexit() // ends UnderFailover here: the fake has no Ensemble to draw
			},
		})
	}()
	<-done
	if restarted.Load() {
		t.Errorf("replica 1 was restarted although no write succeeded after it stopped (only while it was stopping); fatal: %q", ft.fatal)
	}
	if len(ft.fatal) == 0 {
		t.Errorf("UnderFailover did not fail a run in which no new leader took a write")
	}
}
