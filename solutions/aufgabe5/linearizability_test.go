package aufgabe5

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

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
	linMaxOps     = 200 // per client: the run is bounded whatever happens
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
		home := id%e.N() + 1
		clients[id] = &linClient{id: id, e: e, h: h, home: home, answered: &answered,
			session: e.Session(t, home, time.Minute), rng: rand.New(rand.NewSource(seed + int64(id))),
			version: map[string]int32{}}
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
	final := &linClient{id: linClients, e: e, h: h, session: s0, version: map[string]int32{}}
	for i := 1; i <= e.N(); i++ {
		for _, key := range linKeys {
			final.replica = i
			final.get(t, key)
		}
	}
	ops := h.closed()
	if n := f.overlapping(ops); n == 0 {
		t.Fatalf("seed %d: no operation overlapped the outage of replica %d: the fault tested nothing", seed, f.replica)
	} else {
		t.Logf("%d operations overlapped the outage of replica %d", n, f.replica)
	}
	linCheck(t, seed, ops, f)
}

// linFault is the outage of the stopped replica, in history time: from
// its stop until it serves again.
type linFault struct {
	replica  int
	from, to int64
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
// with the seed and a visualization written to a folder kept after the
// test (t.TempDir would be gone by the time anyone opens it).
func linCheck(t *testing.T, seed int64, ops []porcupine.Operation, f linFault) {
	t.Helper()
	var unknown int
	for _, op := range ops {
		if op.Output.(linOutput).result == linUnknown {
			unknown++
		}
	}
	begin := time.Now()
	res, info := porcupine.CheckOperationsVerbose(linModel, ops, linCheckLimit)
	t.Logf("%d operations (%d with unknown outcome), porcupine: %s in %v", len(ops), unknown, res, time.Since(begin))
	switch res {
	case porcupine.Ok:
	case porcupine.Unknown:
		t.Logf("porcupine gave up after %v: no violation found, none ruled out", linCheckLimit)
	default:
		dir, err := os.MkdirTemp("", "linearizability-")
		if err != nil {
			t.Fatalf("seed %d: history not linearizable (and no folder for its visualization: %v)", seed, err)
		}
		info.AddAnnotations([]porcupine.Annotation{{Tag: "fault", Start: f.from, End: f.to,
			Description: fmt.Sprintf("replica %d stopped until it served again", f.replica)}})
		path := filepath.Join(dir, "history.html")
		if err := porcupine.VisualizePath(linModel, info, path); err != nil {
			t.Fatalf("seed %d: history not linearizable (visualization %s failed: %v)", seed, path, err)
		}
		t.Fatalf("seed %d: the history of %d operations is not linearizable; open %s in a browser", seed, len(ops), path)
	}
}

// linClient is one session issuing operations one at a time, on its home
// replica while that serves and on another serving replica otherwise (as
// a ZooKeeper client reconnects elsewhere).
type linClient struct {
	id       int
	e        *svctest.Ensemble
	h        *linHistory
	home     int
	replica  int
	session  int64
	rng      *rand.Rand
	version  map[string]int32 // the last version seen per key, for conditional writes
	writes   int
	answered *atomic.Int32
}

func (c *linClient) run(t *testing.T, stop <-chan struct{}) {
	for n := 0; n < linMaxOps; n++ {
		select {
		case <-stop:
			return
		default:
		}
		if !c.pick(t) {
			return
		}
		key := linKeys[c.rng.Intn(len(linKeys))]
		switch r := c.rng.Intn(10); {
		case r < 2:
			c.write(t, linInput{kind: linCreate, key: key, version: -1})
		case r < 3:
			c.write(t, linInput{kind: linDelete, key: key, version: c.someVersion(key)})
		case r < 6:
			c.write(t, linInput{kind: linSet, key: key, version: c.someVersion(key)})
		default:
			c.get(t, key)
		}
		c.answered.Add(1)
	}
}

// pick chooses the home replica if it serves, else another that does,
// waiting (bounded) while none serves.
func (c *linClient) pick(t *testing.T) bool {
	deadline := time.After(30 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		for k := range c.e.N() {
			i := (c.home-1+k)%c.e.N() + 1
			if linServes(c.e, i) {
				c.replica = i
				return true
			}
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Errorf("client %d: no replica served for 30 s", c.id)
			return false
		}
	}
}

// linServes says whether replica i takes requests. It asks the Service
// too: it answers ConnectionLoss as soon as it stops serving, a moment
// before it tells its Host, and a client that trusted the Host alone
// would spin through that moment with requests that all fail.
func linServes(e *svctest.Ensemble, i int) bool {
	svc := e.Service(i)
	if svc == nil || !e.Host(i).IsServing() {
		return false
	}
	r, ok := svc.(mwzookeeper.Reporter)
	return !ok || r.Stats().Role != "looking"
}

// someVersion is -1 half the time, else the last version this client saw.
func (c *linClient) someVersion(key string) int32 {
	if c.rng.Intn(2) == 0 {
		return -1
	}
	return c.version[key]
}

// do submits req to the client's replica and waits for the answer.
func (c *linClient) do(t *testing.T, req *mwzookeeper.Request) *mwzookeeper.Response {
	return c.await(t, req, c.e.DoAsync(c.replica, req))
}

// await waits for the answer to req; a replica that never answers is an
// error, and the call's outcome is then unknown.
func (c *linClient) await(t *testing.T, req *mwzookeeper.Request, ch <-chan *mwzookeeper.Response) *mwzookeeper.Response {
	select {
	case r := <-ch:
		return r
	case <-time.After(30 * time.Second):
		t.Errorf("client %d: replica %d never answered %s %q", c.id, c.replica, req.Op, req.Path)
		return &mwzookeeper.Response{Err: mwzookeeper.ErrConnectionLoss}
	}
}

// write issues a create, delete or setData with unique data and records it.
func (c *linClient) write(t *testing.T, in linInput) {
	c.writes++
	in.data = fmt.Sprintf("c%d-%d", c.id, c.writes)
	req := &mwzookeeper.Request{Session: c.session, Path: in.key, Version: in.version}
	switch in.kind {
	case linCreate:
		req.Op, req.Data = mwzookeeper.OpCreate, []byte(in.data)
	case linDelete:
		req.Op = mwzookeeper.OpDelete
	case linSet:
		req.Op, req.Data = mwzookeeper.OpSetData, []byte(in.data)
	}
	call := c.h.now()
	r := c.do(t, req)
	ret := c.h.now()
	res, ok := linResultOf(r.Err)
	if !ok {
		t.Errorf("client %d on replica %d: %s %s: unexpected error %v", c.id, c.replica, in.kind, in.key, r.Err)
	}
	out := linOutput{result: res}
	switch {
	case res == linUnknown:
		ret = linOpen
	case res == linOK && in.kind == linSet:
		out.version = r.Stat.Version
		c.version[in.key] = r.Stat.Version
	case res == linOK && in.kind == linCreate:
		c.version[in.key] = 0
	}
	c.h.add(porcupine.Operation{ClientId: c.id, Input: in, Call: call, Output: out, Return: ret})
}

// get issues a sync and, without waiting for it, getData on the same
// replica (as a ZooKeeper client pipelines them: the session's order makes
// the read wait for the sync), recorded as one read from the sync's call
// to the getData's return. A read whose sync or getData lost the
// connection had no effect and is not recorded: a real client loses both
// with the connection.
func (c *linClient) get(t *testing.T, key string) {
	in := linInput{kind: linGet, key: key}
	syncReq := &mwzookeeper.Request{Op: mwzookeeper.OpSync, Session: c.session, Path: key}
	getReq := &mwzookeeper.Request{Op: mwzookeeper.OpGetData, Session: c.session, Path: key}
	call := c.h.now()
	syncCh := c.e.DoAsync(c.replica, syncReq)
	getCh := c.e.DoAsync(c.replica, getReq)
	rs := c.await(t, syncReq, syncCh)
	r := c.await(t, getReq, getCh)
	ret := c.h.now()
	syncRes, ok := linResultOf(rs.Err)
	if !ok || (syncRes != linOK && syncRes != linUnknown) {
		t.Errorf("client %d on replica %d: sync %s: unexpected answer %v", c.id, c.replica, key, rs.Err)
		return
	}
	res, ok := linResultOf(r.Err)
	if !ok || res == linExists || res == linBadVersion {
		t.Errorf("client %d on replica %d: getData %s: unexpected answer %v", c.id, c.replica, key, r.Err)
		return
	}
	if syncRes == linUnknown || res == linUnknown {
		return
	}
	out := linOutput{result: res}
	if res == linOK {
		out.data, out.version = string(r.Data), r.Stat.Version
		c.version[key] = r.Stat.Version
	}
	c.h.add(porcupine.Operation{ClientId: c.id, Input: in, Call: call, Output: out, Return: ret})
}
