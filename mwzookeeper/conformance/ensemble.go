package conformance

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// Deadlines. A correct Service answers in milliseconds; these only bound
// how long a broken one can keep a test waiting.
const (
	replyTimeout  = 10 * time.Second // one request's reply
	probeTimeout  = 5 * time.Second  // the first request of an ensemble
	stopTimeout   = 10 * time.Second // Service.Stop
	startSingle   = 5 * time.Second  // a lone replica until it serves
	startEnsemble = 15 * time.Second // an ensemble until all serve (election)
	longSession   = 60 * time.Second // sessions that must not expire during a test
	testTick      = 100 * time.Millisecond
)

// reply is a Service's answer and the order in which it was given: seq
// counts every reply of the ensemble, so a test sees which came first.
type reply struct {
	*mwzookeeper.Response
	seq int64
}

// ens is an ensemble under test. Every request goes through one submitter
// goroutine per replica, in the order the test submits, so a Service whose
// Submit blocks cannot hang the test; every wait has a deadline.
type ens struct {
	c    *T
	e    *svctest.Ensemble
	n    int
	subs []chan func() // per replica (index myid)
	seq  atomic.Int64

	mu      sync.Mutex
	doubles []string
	beyond  string        // the first read that showed what its replica's peer had not delivered (undelivered)
	beyondN int           // and how many did
	readers map[int]int64 // a long session per replica, for looking at its state
}

// start starts n replicas made by the test's factory and opens a session
// on replica 1 as a probe. If the ensemble does not start, later ensembles
// of that size are not tried; if the probe gets no answer, the rest of the
// suite is not tried; if it fails, the rest of the part is not.
func (c *T) start(n int, o svctest.Options) *ens {
	c.Helper()
	if why := c.gates.startFailed(n); why != "" {
		c.Fatalf("%s %s: not run, because %s", c.part.ID, c.test.name, why)
	}
	if o.TickTime == 0 {
		// Twice svctest's default: on a loaded two-core machine, 50 ms
		// ticks (syncLimit 250 ms) let a stalled follower lose its
		// leader now and then, which a test would see as a failure.
		o.TickTime = testTick
	}
	if o.LeaderTimeout == 0 {
		o.LeaderTimeout = startEnsemble
		if n == 1 {
			o.LeaderTimeout = startSingle
		}
	}
	if o.DoTimeout == 0 {
		o.DoTimeout = replyTimeout
	}
	started := false
	defer func() {
		if !started { // svctest.Start failed the test
			c.gates.setStartFailed(n, fmt.Sprintf("an ensemble of %d replica(s) did not start and serve in %s %s",
				n, c.part.ID, c.test.name))
			c.Logf("%s: the ensemble of %d replica(s) did not come up (Start failed, or not every replica called Host.Serving(true) within %s); later tests with %d replica(s) are not run",
				c.part.ID, n, o.LeaderTimeout, n)
		}
	}()
	e := svctest.Start(c.T, c.f, n, o)
	started = true
	x := &ens{c: c, e: e, n: n, subs: make([]chan func(), n+1), readers: map[int]int64{}}
	for i := 1; i <= n; i++ {
		x.subs[i] = make(chan func(), 4096)
		go runSubmitter(x.subs[i])
	}
	c.Cleanup(x.stopAll)
	x.probe()
	return x
}

func runSubmitter(jobs <-chan func()) {
	for j := range jobs {
		j()
	}
}

// probe opens the reader session of replica 1: the first request any test
// makes. Its failure says the Service cannot do anything yet.
func (x *ens) probe() {
	c := x.c
	c.Helper()
	req := &mwzookeeper.Request{Op: mwzookeeper.OpCreateSession, Timeout: int32(longSession.Milliseconds())}
	select {
	case r := <-x.submit(1, req, nil):
		if r.Err != nil || r.Session == 0 {
			c.gates.stopPart(c.part.ID, fmt.Sprintf("the first request of %s (createSession on replica 1) failed: %s",
				c.part.ID, describe(req, r.Response)))
			c.failf("createSession on replica 1", "a new session id", describe(req, r.Response))
		}
		x.readers[1] = r.Session
	case <-time.After(probeTimeout):
		c.gates.setSilent(fmt.Sprintf("the Service did not answer its first request (createSession) within %s in %s %s",
			probeTimeout, c.part.ID, c.test.name))
		c.failf("createSession on replica 1", "a reply within "+probeTimeout.String(), noReply+x.e.Stuck())
	}
}

// submit hands req to replica i's Service; the channel yields its reply.
// hook, if set, runs inside the reply call (before the test sees it). A
// stopped replica answers ErrConnectionLoss.
func (x *ens) submit(i int, req *mwzookeeper.Request, hook func(*mwzookeeper.Response)) <-chan reply {
	ch := make(chan reply, 1)
	job := func() {
		s := x.e.Service(i)
		if s == nil {
			ch <- reply{&mwzookeeper.Response{Err: fmt.Errorf("%w: replica %d is stopped", wantConnectionLoss, i)}, x.seq.Add(1)}
			return
		}
		var once sync.Once
		// The Service gets a copy, and the test the reply as it was when
		// it came: the tests read req again after the reply (the owner of
		// an ephemeral, the paths acknowledged), and a Service must not be
		// able to change either afterwards.
		s.Submit(req.Clone(), func(r *mwzookeeper.Response) {
			if r == nil {
				r = &mwzookeeper.Response{Err: errors.New("the Service replied with a nil *Response")}
			}
			r = r.Clone()
			first := false
			once.Do(func() {
				first = true
				if hook != nil {
					hook(r)
				}
				if msg := x.undelivered(i, req, r); msg != "" {
					x.mu.Lock()
					if x.beyondN++; x.beyond == "" {
						x.beyond = msg
					}
					x.mu.Unlock()
				}
				ch <- reply{r, x.seq.Add(1)}
			})
			if !first {
				x.mu.Lock()
				x.doubles = append(x.doubles, fmt.Sprintf("%s on replica %d", opText(req), i))
				x.mu.Unlock()
			}
		})
	}
	select {
	case x.subs[i] <- job:
	default:
		x.c.fatalf("%s on replica %d: the Service's Submit is stuck (4096 requests queued behind it)", opText(req), i)
	}
	return ch
}

// undelivered checks a read's reply, as it comes, against what replica
// i's Zab peer has handed to its Service so far: a stat newer than that
// is a write the replica cannot have applied itself. Lone replicas and
// replicas whose peer does not run are not checked.
func (x *ens) undelivered(i int, req *mwzookeeper.Request, r *mwzookeeper.Response) string {
	switch req.Op {
	case mwzookeeper.OpGetData, mwzookeeper.OpExists, mwzookeeper.OpGetChildren2:
	default:
		return ""
	}
	newest := max(r.Stat.Czxid, r.Stat.Mzxid, r.Stat.Pzxid)
	if r.Err != nil || newest <= 0 {
		return ""
	}
	d, ok := x.e.Delivered(i)
	if !ok || uint64(newest) <= d {
		return ""
	}
	return fmt.Sprintf("%s: expected a stat no newer than zxid %#x, the newest write replica %d's own Zab peer had delivered to it, got %s: "+
		"a write that peer had not delivered (do the replicas share state instead of each applying what its peer delivers?)",
		on(req, i), d, i, describe(req, r))
}

// noReply is what a test got when no reply came: the usual causes.
const noReply = "none (reply was never called: Submit blocked, the request was lost, its Deliver never ran or blocked, " +
	"Deliver did not take it for this run's own (the decoded header's proposer and incarnation against s.myid and s.inc, not the cookie's), " +
	"or the code that replies dropped it (answer in order.go))"

// await waits for a reply to req, failing the test after replyTimeout.
func (x *ens) await(i int, req *mwzookeeper.Request, ch <-chan reply) reply {
	x.c.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(replyTimeout):
		x.c.failf(fmt.Sprintf("%s on replica %d", opText(req), i), "a reply within "+replyTimeout.String(),
			noReply+x.e.Stuck())
		return reply{}
	}
}

// do submits req to replica i and waits for its reply.
func (x *ens) do(i int, req *mwzookeeper.Request) *mwzookeeper.Response {
	x.c.Helper()
	return x.await(i, req, x.submit(i, req, nil)).Response
}

// session opens a session on replica i.
func (x *ens) session(i int, timeout time.Duration) int64 {
	x.c.Helper()
	req := &mwzookeeper.Request{Op: mwzookeeper.OpCreateSession, Timeout: int32(timeout.Milliseconds())}
	r := x.do(i, req)
	if r.Err != nil || r.Session == 0 {
		x.c.failf(fmt.Sprintf("createSession on replica %d", i), "a new session id", describe(req, r))
	}
	return r.Session
}

// reader is a long session on replica i for looking at its state.
func (x *ens) reader(i int) int64 {
	x.c.Helper()
	x.mu.Lock()
	s := x.readers[i]
	x.mu.Unlock()
	if s == 0 {
		s = x.session(i, longSession)
		x.mu.Lock()
		x.readers[i] = s
		x.mu.Unlock()
	}
	return s
}

// bounded runs f (Stop or Restart) with a deadline.
func (x *ens) bounded(what string, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(stopTimeout):
		return fmt.Errorf("%s did not return within %s%s", what, stopTimeout, x.e.Stuck())
	}
}

// stop stops replica i (its data stays).
func (x *ens) stop(i int) {
	x.c.Helper()
	if err := x.bounded(fmt.Sprintf("Stop of replica %d", i), func() error { return x.e.Stop(i) }); err != nil {
		x.c.fatalf("stop replica %d: %v", i, err)
	}
	x.mu.Lock()
	delete(x.readers, i)
	x.mu.Unlock()
}

// restart starts replica i again from its disk and waits until it serves.
func (x *ens) restart(i int) {
	x.c.Helper()
	if err := x.bounded(fmt.Sprintf("Restart of replica %d", i), func() error { return x.e.Restart(i) }); err != nil {
		x.c.fatalf("restart replica %d from its disk: %v", i, err)
	}
	x.e.WaitServing(x.c.T, i)
}

// running lists the replicas not stopped.
func (x *ens) running() []int {
	var out []int
	for i := 1; i <= x.n; i++ {
		if x.e.Service(i) != nil {
			out = append(out, i)
		}
	}
	return out
}

// stopAll stops every replica with a deadline and reports double replies.
func (x *ens) stopAll() {
	for i := x.n; i >= 1; i-- {
		if x.e.Service(i) == nil {
			continue
		}
		if err := x.bounded(fmt.Sprintf("Stop of replica %d", i), func() error { return x.e.Stop(i) }); err != nil {
			x.c.Errorf("%s: stop replica %d at the end of the test: %v", x.c.part.ID, i, err)
		}
	}
	for i := 1; i <= x.n; i++ {
		close(x.subs[i])
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, d := range x.doubles {
		x.c.Errorf("%s %s: expected exactly one reply, got a second one (a request is answered once)", x.c.part.ID, d)
	}
	if x.beyondN > 0 { // the first says it; there may be thousands
		x.c.Errorf("%s %s (%d such read(s) in this test)", x.c.part.ID, x.beyond, x.beyondN)
	}
}
