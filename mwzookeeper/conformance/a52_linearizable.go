package conformance

import (
	"fmt"
	"time"

	"zablab/internal/lincheck"
	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// The linearizability test of A5.2 (package internal/lincheck): six
// sessions, two per replica, issue a random mix of create, delete, setData
// and sync+getData on three keys while the leader's replica is stopped and
// restarted. Every call is recorded with the times it was made and
// answered; the history must have a linearization. A failing history is
// drawn as a page, named in the failure (and by make grade).

const (
	linClients  = 6    // two sessions per replica
	linMaxOps   = 1500 // per session: the run is bounded whatever happens
	linPerLeg   = 1000 // answers before the stop, and again after the restart (500 let a known bug through once in 65 gradings)
	linDefinite = 50   // successful writes, and reads, the history must hold (the reference: over 120 of each)
)

func testLinearizable(c *T) {
	// Skewed clocks let x.leader tell the leader by a node's ctime where
	// the Service does not report its role.
	x := c.start(3, svctest.Options{Skews: []time.Duration{0, 4 * time.Second, -4 * time.Second}})
	seed := c.Rand().Int63()
	x.create(1, x.reader(1), lincheck.Parent, "", pers)
	out := lincheck.UnderFailover(c.T, lincheck.Failover{
		Ensemble: x.e, Cluster: ensCluster{x}, History: lincheck.NewHistory(), Seed: seed,
		Clients: linClients, MaxOps: linMaxOps, PerLeg: linPerLeg,
		Leader:  func() int { return x.leader("/lin-leader-probe") },
		Stop:    x.stop,
		Restart: x.restart,
	})
	if out.Overlapping == 0 {
		c.fatalf("Linearizable: no operation overlapped the outage of replica %d: the fault tested nothing", out.Replica)
	}
	w, r := out.Definite()
	c.Logf("A5.2 Linearizable: %d operations (%d successful writes, %d reads), %d of them while replica %d was out",
		len(out.Ops), w, r, out.Overlapping, out.Replica)
	// A Service that loses every answer has a linearizable history too.
	if w < linDefinite || r < linDefinite {
		c.failf("the history of six sessions across a stop and restart of the leader",
			fmt.Sprintf("at least %d successful writes and %d answered sync+getData", linDefinite, linDefinite),
			fmt.Sprintf("%d and %d of %d operations (the rest lost their answers)", w, r, len(out.Ops)))
	}
	err := lincheck.Verify(c.T, out.Ops, out.Faults, lincheck.Page{
		Title:  fmt.Sprintf("A5.2 Linearizable, seed %d: the history is not linearizable", c.seed),
		Replay: c.replay(),
		Notes:  []string{fmt.Sprintf("the leader's replica %d was stopped and restarted", out.Replica)},
	})
	if err != nil {
		c.fatalf("Linearizable (seed %d): %v", c.seed, err)
	}
}

// ensCluster is the ensemble as lincheck's clients see it: requests go
// through the test's submitters, so a Service whose Submit blocks cannot
// hang a client.
type ensCluster struct{ x *ens }

func (c ensCluster) N() int { return c.x.n }

func (c ensCluster) Serves(i int) bool { return lincheck.ReplicaServes(c.x.e, i) }

func (c ensCluster) DoAsync(i int, req *mwzookeeper.Request) <-chan *mwzookeeper.Response {
	in := c.x.submit(i, req, nil)
	out := make(chan *mwzookeeper.Response, 1)
	go func() {
		// Bounded: a Service that never answers leaves no goroutine for
		// longer than the client waits for it.
		select {
		case r := <-in:
			out <- r.Response
		case <-time.After(2 * replyTimeout):
		}
	}()
	return out
}
