package aufgabe5

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"zablab/internal/histview"
	"zablab/internal/lincheck"
	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// The linearizability test (package internal/lincheck): sessions on every
// replica of a 3-replica ensemble issue a random mix of create, delete,
// setData and sync+getData on a few keys while the leader's replica is
// stopped and restarted; porcupine then checks that the recorded history
// has a linearization. The grading suite's A5.2/Linearizable is the same
// run through the conformance harness.

const (
	linClients   = 6   // two sessions per replica
	linMaxOps    = 300 // per client: the run is bounded whatever happens
	linOpsPerLeg = 60  // answers before the fault, and again after it
)

// linSeed is MWZK_SEED when set, otherwise drawn; a failing test prints it.
func linSeed(t *testing.T) int64 {
	seed := time.Now().UnixNano() % 1_000_000_000
	if s := os.Getenv("MWZK_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("MWZK_SEED=%q: not a number", s)
		}
		seed = v
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replay with: %s", linReplay(seed, t.Name()))
		}
	})
	return seed
}

func linReplay(seed int64, test string) string {
	return fmt.Sprintf("MWZK_SEED=%d go test -race -count=1 -run '^%s$' ./solutions/aufgabe5", seed, test)
}

func TestLinearizabilityUnderLeaderFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("an ensemble with a failover: not in -short")
	}
	seed := linSeed(t)
	t.Logf("seed %d", seed)
	e := start(t, 3, svctest.Options{})
	s0 := e.Session(t, 1, time.Minute)
	mustOK(t, "create "+lincheck.Parent, create(e, t, 1, s0, lincheck.Parent, "", mwzookeeper.Persistent))
	out := lincheck.UnderFailover(t, lincheck.Failover{
		Ensemble: e, Cluster: lincheck.EnsembleCluster{Ensemble: e}, History: lincheck.NewHistory(), Seed: seed,
		Clients: linClients, MaxOps: linMaxOps, PerLeg: linOpsPerLeg,
		Leader: e.Leader,
		Stop: func(i int) {
			if err := e.Stop(i); err != nil {
				t.Fatalf("stop leader %d: %v", i, err)
			}
		},
		Restart: func(i int) {
			if err := e.Restart(i); err != nil {
				t.Fatalf("restart replica %d: %v", i, err)
			}
			e.WaitServing(t, i)
		},
	})
	if out.Overlapping == 0 {
		t.Fatalf("seed %d: no operation overlapped the outage of replica %d: the fault tested nothing", seed, out.Replica)
	}
	t.Logf("%d operations overlapped the outage of replica %d", out.Overlapping, out.Replica)
	linCheck(t, seed, out.Ops, out.Faults)
}

// linCheck fails t if the history is not linearizable, naming the page
// that draws it.
func linCheck(t *testing.T, seed int64, ops []porcupine.Operation, faults []histview.Fault) {
	t.Helper()
	err := lincheck.Verify(t, ops, faults, lincheck.Page{
		Title:  fmt.Sprintf("seed %d: the history is not linearizable", seed),
		Replay: linReplay(seed, t.Name()),
	})
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
}
