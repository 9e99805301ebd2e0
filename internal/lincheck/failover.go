package lincheck

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"zablab/internal/histview"
	"zablab/internal/svctest"
	"zablab/internal/wait"
)

// legTimeout bounds each wait of a failover run for answers: a service
// that answers nothing fails the test instead of hanging it.
const legTimeout = 30 * time.Second

// Failover is a run of the mix across a stop and restart of the leader's
// replica.
type Failover struct {
	Ensemble *svctest.Ensemble
	Cluster  Cluster
	History  *History
	Seed     int64
	Clients  int // sessions, spread over the replicas in turn
	MaxOps   int // per client: the run is bounded whatever happens
	PerLeg   int // answers before the fault, and again after the restart

	Leader  func() int  // the replica to stop; 0 fails the test
	Stop    func(i int) // stops replica i; fails the test itself
	Restart func(i int) // starts replica i again and returns when it serves
}

// Outcome is what a failover run recorded.
type Outcome struct {
	Ops         []porcupine.Operation // the closed history
	Faults      []histview.Fault      // for the picture of a failing history
	Replica     int                   // the replica stopped
	Overlapping int                   // operations that ran while it was out
}

// Definite counts the writes that succeeded and the reads recorded: a
// history of lost answers alone is linearizable and tests nothing.
func (o Outcome) Definite() (writes, reads int) {
	for _, op := range o.Ops {
		switch {
		case op.Input.(Input).Kind == Get:
			reads++
		case op.Output.(Output).Result == OK:
			writes++
		}
	}
	return writes, reads
}

// UnderFailover runs the clients, stops the leader's replica once PerLeg
// operations are answered, waits until a write succeeds without it (a new
// leader), restarts it, waits for PerLeg more answers, stops the clients
// and reads every key through every replica.
func UnderFailover(t testing.TB, f Failover) Outcome {
	t.Helper()
	var answered, finished atomic.Int32
	clients := make([]*Client, f.Clients)
	for id := range clients {
		c, err := NewClient(t, f.Cluster, f.History, id, id%f.Cluster.N()+1, f.Seed, &answered)
		if err != nil {
			t.Fatalf("%v", err)
		}
		clients[id] = c
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Go(func() {
			defer finished.Add(1)
			c.Run(t, stop, f.MaxOps)
		})
	}
	// The clients stop before this returns, also when the test fails.
	var once sync.Once
	end := func() { once.Do(func() { close(stop); wg.Wait() }) }
	defer end()
	enough := func(n int32) func() bool {
		return func() bool { return answered.Load() >= n || finished.Load() == int32(f.Clients) }
	}
	h := f.History
	wait.For(t, "answers before the fault", legTimeout, enough(int32(f.PerLeg)))
	out := Outcome{Replica: f.Leader()}
	if out.Replica == 0 {
		t.Fatalf("no leader to stop")
	}
	from := h.Now()
	f.Stop(out.Replica)
	// Only what was called after Stop returned proves a new leader, and
	// overlapped the outage: the old leader may answer while it stops.
	stopped := h.Now()
	wait.For(t, fmt.Sprintf("a write answered with success after replica %d stopped (a new leader)", out.Replica),
		legTimeout, func() bool { return h.writeSucceededAfter(stopped) || finished.Load() == int32(f.Clients) })
	if !h.writeSucceededAfter(stopped) {
		t.Fatalf("no write was answered with success after replica %d (the leader) stopped; the clients ended after %d operations each",
			out.Replica, f.MaxOps)
	}
	restart := h.Now()
	f.Restart(out.Replica)
	to := h.Now()
	t.Logf("replica %d (the leader) stopped and restarted; %d answers so far", out.Replica, answered.Load())
	wait.For(t, "answers after the restart", legTimeout, enough(answered.Load()+int32(f.PerLeg)))
	end()
	clients[0].ReadEverywhere(t)
	out.Ops = h.Closed()
	for _, op := range out.Ops {
		// An operation whose outcome is unknown returns at the end of the
		// history, so it would overlap any fault: it does not count.
		if op.Call <= to && op.Return >= stopped && op.Output.(Output).Result != Unknown {
			out.Overlapping++
		}
	}
	out.Faults = append(stopFaults(out.Replica, from, restart), servingFaults(f.Ensemble, h, out.Replica, restart)...)
	return out
}

// writeSucceededAfter says whether a write called after at was answered
// with success.
func (h *History) writeSucceededAfter(at int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, op := range h.ops {
		if op.Call > at && op.Input.(Input).Kind != Get && op.Output.(Output).Result == OK {
			return true
		}
	}
	return false
}

// stopFaults draws the stop and restart of replica i and its time down.
func stopFaults(i int, from, restart int64) []histview.Fault {
	return []histview.Fault{
		{Replica: i, Kind: histview.Stop, Start: from, Details: "the test stops the leader's replica"},
		{Replica: i, Kind: histview.Down, Start: from, End: restart},
		{Replica: i, Kind: histview.Restart, Start: restart, Details: "started again from its disk"},
	}
}

// servingFaults lists every period in which a replica served no clients,
// as its Host saw it. The stopped replica's periods begin no earlier than
// its restart: before it, the "down" period says why it served nobody.
func servingFaults(e *svctest.Ensemble, h *History, stopped int, restart int64) []histview.Fault {
	var fs []histview.Fault
	end := h.Now()
	for i := 1; i <= e.N(); i++ {
		notBefore := int64(0)
		if i == stopped {
			notBefore = restart
		}
		fs = append(fs, lookingPeriods(i, e.Host(i).ServingChanges(), h.At, notBefore, end)...)
	}
	return fs
}

// lookingPeriods turns replica i's Serving calls into the periods it
// served no clients, on the history's clock (at), none before notBefore;
// one still open ends at end.
func lookingPeriods(i int, changes []svctest.ServingChange, at func(time.Time) int64, notBefore, end int64) []histview.Fault {
	var fs []histview.Fault
	add := func(from, to int64) {
		if from = max(from, notBefore); to > from {
			fs = append(fs, histview.Fault{Replica: i, Kind: histview.Looking, Start: from, End: to,
				Details: fmt.Sprintf("replica %d served no clients: no leader, or catching up", i)})
		}
	}
	from := int64(-1)
	for _, c := range changes {
		t := at(c.At)
		switch {
		case !c.Serving && from < 0:
			from = max(t, 0)
		case c.Serving && from >= 0:
			add(from, t)
			from = -1
		}
	}
	if from >= 0 {
		add(from, end)
	}
	return fs
}
