package aufgabe5

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"zablab/internal/artifacts"
	"zablab/internal/histview"
	"zablab/internal/svctest"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

// The linearizability test: sessions on every replica of a 3-replica
// ensemble issue a random mix of create, delete, setData and
// sync+getData on a few keys while the leader's replica is stopped and
// restarted; porcupine then checks that the recorded history has a
// linearization under the model of linearizability_model_test.go.

const (
	linClients    = 6   // two sessions per replica
	linMaxOps     = 300 // per client: the run is bounded whatever happens
	linOpsPerLeg  = 60  // answers before the fault, and again after it
	linCheckLimit = 10 * time.Second
)

var linKeys = []string{"/lin/a", "/lin/b", "/lin/c"}

// linOpen marks a return time still open: the operation's outcome is
// unknown, and its return is set to the end of the history.
const linOpen = -1

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
			t.Logf("replay with: MWZK_SEED=%d go test -race -count=1 -run '^%s$' ./solutions/aufgabe5", seed, t.Name())
		}
	})
	return seed
}

// linHistory collects operations from every client, timed from one start.
type linHistory struct {
	start time.Time
	mu    sync.Mutex
	ops   []porcupine.Operation
}

func (h *linHistory) now() int64 { return int64(time.Since(h.start)) }

func (h *linHistory) add(op porcupine.Operation) {
	h.mu.Lock()
	h.ops = append(h.ops, op)
	h.mu.Unlock()
}

// closed returns the history with every open return set after the last
// return: an operation whose outcome is unknown may take effect at any
// point after its call, or never.
func (h *linHistory) closed() []porcupine.Operation {
	h.mu.Lock()
	defer h.mu.Unlock()
	end := int64(0)
	for _, op := range h.ops {
		end = max(end, op.Return, op.Call)
	}
	out := make([]porcupine.Operation, len(h.ops))
	for i, op := range h.ops {
		if op.Return == linOpen {
			op.Return = end + 1
		}
		out[i] = op
	}
	return out
}

func TestLinearizabilityUnderLeaderFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("an ensemble with a failover: not in -short")
	}
	seed := linSeed(t)
	t.Logf("seed %d", seed)
	e := start(t, 3, svctest.Options{})
	s0 := e.Session(t, 1, time.Minute)
	mustOK(t, "create /lin", create(e, t, 1, s0, "/lin", "", mwzookeeper.Persistent))
	h := &linHistory{start: time.Now()}
	var answered atomic.Int32
	stop := make(chan struct{})
	clients := make([]*linClient, linClients)
	for id := range clients {
		clients[id] = newLinClient(t, e, h, id, id%e.N()+1, seed)
		clients[id].answered = &answered
	}
	var wg sync.WaitGroup
	var finished atomic.Int32
	for _, c := range clients {
		wg.Go(func() {
			defer finished.Add(1)
			c.run(t, stop)
		})
	}
	// The clients stop before the test returns, also when it fails.
	var once sync.Once
	finish := func() { once.Do(func() { close(stop); wg.Wait() }) }
	defer finish()
	f := linFailover(t, e, h, &answered, &finished)
	finish()
	// A last synced read of every key on every replica makes the outcome
	// of the lost writes visible. It uses an old session: a fresh one may
	// be unknown yet on a lagging replica, and the Service then answers a
	// reconnect with SessionExpired (see docs/decisions.md).
	final := clients[0]
	for i := 1; i <= e.N(); i++ {
		final.home = i
		for _, key := range linKeys {
			if final.pick(t) {
				final.get(t, key)
			}
		}
	}
	ops := h.closed()
	if n := f.overlapping(ops); n == 0 {
		t.Fatalf("seed %d: no operation overlapped the outage of replica %d: the fault tested nothing", seed, f.replica)
	} else {
		t.Logf("%d operations overlapped the outage of replica %d", n, f.replica)
	}
	linCheck(t, seed, ops, f.faults(e, h))
}

// linFault is the outage of the stopped replica, in history time: from
// its stop until it serves again, with the moment it was restarted.
type linFault struct {
	replica           int
	from, restart, to int64
}

// faults lists what a picture of the history draws beside the clients:
// the stop and restart of the replica, its time down, and every period
// in which a replica served no clients (LOOKING, or stopped).
func (f linFault) faults(e *svctest.Ensemble, h *linHistory) []histview.Fault {
	fs := []histview.Fault{
		{Replica: f.replica, Kind: histview.Stop, Start: f.from, Details: "the test stops the leader's replica"},
		{Replica: f.replica, Kind: histview.Down, Start: f.from, End: f.restart},
		{Replica: f.replica, Kind: histview.Restart, Start: f.restart, Details: "started again from its disk"},
	}
	end := h.now()
	for i := 1; i <= e.N(); i++ {
		from := int64(-1)
		for _, c := range e.Host(i).ServingChanges() {
			at := int64(c.At.Sub(h.start))
			switch {
			case !c.Serving && from < 0:
				from = max(at, 0)
			case c.Serving && from >= 0:
				if at > 0 {
					fs = append(fs, histview.Fault{Replica: i, Kind: histview.Looking, Start: from, End: at,
						Details: fmt.Sprintf("replica %d served no clients: no leader, or stopped", i)})
				}
				from = -1
			}
		}
		if from >= 0 {
			fs = append(fs, histview.Fault{Replica: i, Kind: histview.Looking, Start: from, End: end})
		}
	}
	return fs
}

// overlapping counts the operations that ran while the replica was out.
func (f linFault) overlapping(ops []porcupine.Operation) int {
	n := 0
	for _, op := range ops {
		if op.Call <= f.to && op.Return >= f.from {
			n++
		}
	}
	return n
}

// linFailover waits for some answers, stops the leader's replica, waits
// for a new leader, restarts the old one, and waits for more answers.
func linFailover(t *testing.T, e *svctest.Ensemble, h *linHistory, answered, finished *atomic.Int32) linFault {
	enough := func(n int32) func() bool {
		return func() bool { return answered.Load() >= n || finished.Load() == linClients }
	}
	wait.For(t, "answers before the fault", 60*time.Second, enough(linOpsPerLeg))
	leader := e.Leader()
	if leader == 0 {
		t.Fatal("no leader to stop")
	}
	f := linFault{replica: leader, from: h.now()}
	if err := e.Stop(leader); err != nil {
		t.Fatalf("stop leader %d: %v", leader, err)
	}
	next := e.WaitNewLeader(t, leader)
	f.restart = h.now()
	if err := e.Restart(leader); err != nil {
		t.Fatalf("restart replica %d: %v", leader, err)
	}
	e.WaitServing(t, leader)
	f.to = h.now()
	t.Logf("leader %d stopped and restarted; %d leads; %d answers so far", leader, next, answered.Load())
	wait.For(t, "answers after the restart", 60*time.Second, enough(answered.Load()+linOpsPerLeg))
	return f
}

// linCheck runs porcupine on the history; an illegal one fails the test
// with the seed and a picture of the history with the faults beside it
// (package internal/histview), written to a folder kept after the test
// ($ZABLAB_ARTIFACTS, or a new folder under the system's temporary one).
func linCheck(t testing.TB, seed int64, ops []porcupine.Operation, faults []histview.Fault) {
	t.Helper()
	var unknown, moved int
	for _, op := range ops {
		switch op.Output.(linOutput).result {
		case linUnknown:
			unknown++
		case linMoved:
			moved++
		}
	}
	begin := time.Now()
	res, info := porcupine.CheckOperationsVerbose(linModel, ops, linCheckLimit)
	t.Logf("%d operations (%d with unknown outcome, %d refused with SessionMoved), porcupine: %s in %v",
		len(ops), unknown, moved, res, time.Since(begin))
	switch res {
	case porcupine.Ok:
	case porcupine.Unknown:
		t.Logf("porcupine gave up after %v: no violation found, none ruled out", linCheckLimit)
	default:
		path := filepath.Join(artifacts.Keep(t), "history.html")
		err := histview.WriteFile(path, histview.Page{Title: fmt.Sprintf("seed %d: the history is not linearizable", seed),
			Notes: []string{fmt.Sprintf("%d operations of %d clients; replay: MWZK_SEED=%d go test -run '^%s$' ./solutions/aufgabe5",
				len(ops), linClients, seed, t.Name())}, Model: linModel, Info: info, Faults: faults})
		if err != nil {
			t.Fatalf("seed %d: history not linearizable (and its picture %s failed: %v)", seed, path, err)
		}
		t.Fatalf("seed %d: the history of %d operations is not linearizable; open %s in a browser", seed, len(ops), path)
	}
}
