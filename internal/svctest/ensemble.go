package svctest

import (
	"cmp"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"zablab/internal/ports"
	"zablab/internal/stacks"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
	"zablab/properties"
	"zablab/zab"
)

// Options tune an Ensemble; the zero value is a fast test ensemble.
type Options struct {
	TickTime  time.Duration   // default 50 ms
	SnapCount int             // 0: Zab's default
	Skews     []time.Duration // Skews[i-1] is replica i's clock skew
	LogLevel  string          // log.level of peers and hosts; default env ZABLAB_LOG or WARN
	// DoTimeout bounds Do (default 10 s); LeaderTimeout bounds Start's wait
	// for every replica to serve, and each Service's Start (default 20 s).
	DoTimeout     time.Duration
	LeaderTimeout time.Duration
	// Extra is appended to every replica's properties ("key=value" lines).
	Extra string
	// NoZab says the Service runs no Zab peer (a fake): WaitServing then
	// does not check that each replica's peer is listed at its address.
	NoZab bool
}

// defaultLeaderTimeout is Options.LeaderTimeout's default.
const defaultLeaderTimeout = 20 * time.Second

// Ensemble is n replicas of a Service running in this process.
type Ensemble struct {
	t     testing.TB
	f     mwzookeeper.Factory
	n     int
	opts  Options
	hosts []*Host // index myid; [0] unused
	props []*properties.Properties

	mu      sync.Mutex
	svcs    []mwzookeeper.Service // nil while stopped
	doubles []string              // replies given twice
	pkg     string                // the import path of the Service's code
}

// Start writes n properties files, starts n replicas made by f and waits
// until every one serves. t.Cleanup stops them all.
func Start(t testing.TB, f mwzookeeper.Factory, n int, o Options) *Ensemble {
	t.Helper()
	if o.TickTime == 0 {
		o.TickTime = 50 * time.Millisecond
	}
	if o.DoTimeout == 0 {
		o.DoTimeout = 10 * time.Second
	}
	if o.LeaderTimeout == 0 {
		o.LeaderTimeout = defaultLeaderTimeout
	}
	o.LogLevel = logLevel(o.LogLevel)
	e := &Ensemble{t: t, f: f, n: n, opts: o,
		hosts: make([]*Host, n+1), props: make([]*properties.Properties, n+1),
		svcs: make([]mwzookeeper.Service, n+1)}
	if err := e.writeProps(DataDir(t)); err != nil {
		t.Fatalf("svctest: %v", err)
	}
	t.Cleanup(e.stopAll)
	for i := 1; i <= n; i++ {
		var skew time.Duration
		if i <= len(o.Skews) {
			skew = o.Skews[i-1]
		}
		e.hosts[i] = NewHostWithLog("replica"+strconv.Itoa(i), skew, o.LogLevel)
		if err := e.startReplica(i); err != nil {
			t.Fatalf("svctest: %v", err)
		}
	}
	for i := 1; i <= n; i++ {
		e.WaitServing(t, i)
	}
	return e
}

// writeProps writes replica i's file as dir/replica<i>/zab.properties and
// loads it back, so that errors name a real file and line.
func (e *Ensemble) writeProps(dir string) error {
	var addrs []int
	if e.n > 1 {
		var err error
		if addrs, err = ports.Free(e.n); err != nil {
			return err
		}
	}
	for i := 1; i <= e.n; i++ {
		rd := filepath.Join(dir, "replica"+strconv.Itoa(i))
		if err := os.MkdirAll(rd, 0o755); err != nil {
			return err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "myid=%d\n", i)
		for j, port := range addrs {
			fmt.Fprintf(&b, "peer%d=127.0.0.1:%d\n", j+1, port)
		}
		fmt.Fprintf(&b, "dataLogDir=log\ndataSnapDir=snap\ntickTime=%d\ninitLimit=10\nsyncLimit=5\n",
			e.opts.TickTime.Milliseconds())
		if e.opts.SnapCount > 0 {
			fmt.Fprintf(&b, "snapCount=%d\n", e.opts.SnapCount)
		}
		fmt.Fprintf(&b, "log.level=%s\n%s\n", e.opts.LogLevel, e.opts.Extra)
		file := filepath.Join(rd, "zab.properties")
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			return err
		}
		p, err := properties.LoadFile(file)
		if err != nil {
			return err
		}
		e.props[i] = p
	}
	return nil
}

func (e *Ensemble) startReplica(i int) error {
	// The Service gets a copy: what it changes in its properties must not
	// change the addresses and folders the tests know it by.
	props, host := e.props[i].Clone(), e.hosts[i].ForService()
	var made atomic.Pointer[mwzookeeper.Service]
	started := make(chan error, 1)
	abandoned := false // under e.mu: the deadline passed, nobody waits
	go func() {
		s := e.f()
		e.mu.Lock()
		e.pkg = stacks.PackageOf(s)
		e.mu.Unlock()
		made.Store(&s)
		err := s.Start(props, host)
		e.mu.Lock()
		late := abandoned
		if !late {
			started <- err
		}
		e.mu.Unlock()
		if late && err == nil {
			// Started after its test gave up on it: no one else would
			// stop it, and it would keep the replica's ports and tell its
			// Host it serves (a review's).
			_ = s.Stop()
		}
	}()
	err, inTime := e.waitStarted(started, &abandoned)
	switch {
	case !inTime && made.Load() == nil:
		return fmt.Errorf("replica %d (%s): %w: the factory (New) did not return a Service within %s",
			i, e.props[i].File(), ErrStartHangs, e.startLimit())
	case !inTime:
		return fmt.Errorf("replica %d (%s): %w: Start did not return within %s: Start must return once the replica's Zab peer runs, and tell "+
			"the Host when it serves (Host.Serving(true)), not wait for the ensemble: the replicas start one after another%s",
			i, e.props[i].File(), ErrStartHangs, e.startLimit(), e.Stuck())
	case err != nil:
		return fmt.Errorf("replica %d (%s): start: %w", i, e.props[i].File(), err)
	}
	e.mu.Lock()
	e.svcs[i] = *made.Load()
	e.mu.Unlock()
	return nil
}

// startLimit bounds a replica's factory and Start: LeaderTimeout.
func (e *Ensemble) startLimit() time.Duration {
	return cmp.Or(e.opts.LeaderTimeout, defaultLeaderTimeout)
}

// waitStarted waits for Start's result until startLimit; at the deadline
// it marks the start abandoned (under e.mu, so that a result that came
// just then is taken, not lost). Else a call that never returns holds the
// test binary until go test's own timeout: a quarter of an hour of a
// class's grading.
func (e *Ensemble) waitStarted(started <-chan error, abandoned *bool) (err error, inTime bool) {
	select {
	case err := <-started:
		return err, true
	case <-time.After(e.startLimit()):
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	select {
	case err := <-started:
		return err, true
	default:
		*abandoned = true
		return nil, false
	}
}

// Stuck describes where the goroutines of the Service's own code are now
// (internal/stacks), for a failure that waited in vain: "" when none is
// inside it, else a line to append to the message, starting with "; ".
func (e *Ensemble) Stuck() string {
	e.mu.Lock()
	pkg := e.pkg
	e.mu.Unlock()
	if d := stacks.Inside(pkg); d != "" {
		return "; the Service's goroutines now (a lock or channel that never frees?):" + d
	}
	return ""
}

// N is the number of replicas.
func (e *Ensemble) N() int { return e.n }

// Service returns replica i's running Service (nil while stopped).
func (e *Ensemble) Service(i int) mwzookeeper.Service {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.svcs[i]
}

// Host returns replica i's Host; it survives Stop and Restart.
func (e *Ensemble) Host(i int) *Host { return e.hosts[i] }

// Props returns replica i's properties.
func (e *Ensemble) Props(i int) *properties.Properties { return e.props[i] }

// Stop stops replica i's Service; its data folders stay.
func (e *Ensemble) Stop(i int) error {
	e.mu.Lock()
	s := e.svcs[i]
	e.svcs[i] = nil
	e.mu.Unlock()
	if s == nil {
		return fmt.Errorf("svctest: replica %d is not running", i)
	}
	if err := s.Stop(); err != nil {
		return err
	}
	if e.n == 1 {
		return nil
	}
	addr, _ := e.props[i].Get("peer" + strconv.Itoa(i))
	if err := PeerLeft(addr, peerLeftTimeout); err != nil {
		return fmt.Errorf("svctest: replica %d: %w", i, err)
	}
	return nil
}

// ErrStartHangs is startReplica's error for a factory or a Start that does
// not return within Options.LeaderTimeout.
var ErrStartHangs = errors.New("the replica did not start in time")

// ErrStillRunning is PeerLeft's error: a stopped replica's Zab peer runs on.
var ErrStillRunning = errors.New("the Zab peer still runs after its Service's Stop returned")

// peerLeftTimeout is how long a stopped peer's address may stay taken.
const peerLeftTimeout = 5 * time.Second

// PeerLeft checks that the Zab peer at addr (a replica's peer<i>) has
// left the ensemble once its Service's Stop returned: the Zab library no
// longer lists it, and its address can be bound again within d. A Service
// whose Stop leaves its peer running (parked in a package variable for
// the next Start to go on with) would otherwise stay in the ensemble
// while the tests count it as stopped, and be spared every fault they
// make: no leader change, no state transfer (variant stop-leaves-zab).
// The bind also catches a peer that spells its address otherwise than
// the properties, where the library's list would not find it.
func PeerLeft(addr string, d time.Duration) error {
	if _, ok := zab.PeerFiguresAt(addr); ok {
		return fmt.Errorf("%w: the Zab library still lists the peer at %s", ErrStillRunning, addr)
	}
	deadline := time.Now().Add(d)
	for {
		l, err := net.Listen("tcp", addr)
		if err == nil {
			return l.Close()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w: its address %s is still taken %s later: %w", ErrStillRunning, addr, d, err)
		}
		<-time.After(20 * time.Millisecond)
	}
}

// Restart starts a fresh Service from the factory on replica i's
// properties and disk (stopping the running one first, if any). It does
// not wait for it to serve: see WaitServing.
func (e *Ensemble) Restart(i int) error {
	if e.Service(i) != nil {
		if err := e.Stop(i); err != nil {
			return err
		}
	}
	// The replica's peer port may still be taken for a moment (a socket
	// of the stopped peer, or a test elsewhere that drew the same free
	// port): retry for a while before giving up.
	var err error
	for try := 0; try < 40; try++ {
		if err = e.startReplica(i); err == nil || !strings.Contains(err.Error(), "address already in use") {
			return err
		}
		<-time.After(50 * time.Millisecond)
	}
	return err
}

// WaitServing waits until replica i reports Serving(true), failing t
// after Options.LeaderTimeout.
// The failure says what the Host saw, so the message points at the cause.
func (e *Ensemble) WaitServing(t testing.TB, i int) {
	t.Helper()
	h := e.hosts[i]
	deadline := time.Now().Add(e.opts.LeaderTimeout)
	for !h.IsServing() {
		if time.Now().After(deadline) {
			t.Fatalf("replica %d of %d does not serve after %v: %s%s", i, e.n, e.opts.LeaderTimeout, servingHint(h, e.Service(i)), e.Stuck())
		}
		<-time.After(5 * time.Millisecond) // Host.Serving is a plain setter: nothing to wait on
	}
	e.listed(t, i, deadline)
}

// listed fails t unless replica i's Zab peer is listed by the Zab library
// at the address its properties give it (peer<i>), by deadline. Leader
// finds the leader there; a Service that started its peer under another
// spelling of the address (a port with a leading zero) would hide its
// leader, and a test that then guessed the leader by a node's ctime
// could be led to a follower (variant address-lie).
func (e *Ensemble) listed(t testing.TB, i int, deadline time.Time) {
	t.Helper()
	if e.n == 1 || e.opts.NoZab {
		return
	}
	addr, _ := e.props[i].Get("peer" + strconv.Itoa(i))
	wait.For(t, fmt.Sprintf("replica %d of %d, which serves, to have a Zab peer of this process at its address %s (peer%d of %s): a Service starts Zab with the peer addresses of its properties as they are spelled",
		i, e.n, addr, i, e.props[i].File()), time.Until(deadline), func() bool {
		_, ok := zab.PeerFiguresAt(addr)
		return ok
	})
}

// servingHint says what the Host observed of a replica that does not serve.
func servingHint(h *Host, s mwzookeeper.Service) string {
	role := ""
	if st, ok, err := statsOf(s); err != nil {
		role = " (" + err.Error() + ")"
	} else if ok {
		role = fmt.Sprintf(" (its Stats say role %q)", st.Role)
	}
	changes := h.ServingChanges()
	if len(changes) == 0 {
		return "it never called Host.Serving(true)" + role +
			"; a replica reports Serving(true) when its Zab peer reports LEADING or FOLLOWING (the Status callback: callback.Status in callback.go of the stubs, A5.1)"
	}
	last := changes[len(changes)-1]
	return fmt.Sprintf("its last Host.Serving call was Serving(%t), %v ago%s, after %d call(s)",
		last.Serving, time.Since(last.At).Round(time.Millisecond), role, len(changes))
}

// Leader returns the myid of the running replica whose Zab peer leads,
// or 0 when none does. It asks the Zab library (zab.PeerFiguresAt, by the
// replica's peer<i> address), not the Service: a graded Service could
// name a follower as leader, and the tests that stop the leader would
// then stop a follower. A lone replica leads when its Service reports
// role "standalone" (there is nothing to stop instead).
func (e *Ensemble) Leader() int {
	for i := 1; i <= e.n; i++ {
		if e.Service(i) != nil && e.leads(i) {
			return i
		}
	}
	return 0
}

// Delivered returns the zxid of the newest transaction replica i's Zab
// peer handed to its Service (zab.PeerDeliveredAt, by the replica's
// peer<i> address); false for a lone replica, a fake without Zab, or a
// replica whose peer does not run. A replica's reads can show nothing
// newer.
func (e *Ensemble) Delivered(i int) (uint64, bool) {
	if e.n == 1 || e.opts.NoZab {
		return 0, false
	}
	addr, _ := e.props[i].Get("peer" + strconv.Itoa(i))
	return zab.PeerDeliveredAt(addr)
}

// leads says whether replica i's Zab peer is LEADING.
func (e *Ensemble) leads(i int) bool {
	if e.n == 1 {
		st, ok, err := statsOf(e.Service(i))
		return ok && err == nil && st.Role == "standalone"
	}
	addr, _ := e.props[i].Get("peer" + strconv.Itoa(i))
	f, ok := zab.PeerFiguresAt(addr)
	return ok && f.Role == zab.Leading
}

// WaitNewLeader waits until a running replica other than old leads and
// every running replica serves, and returns the new leader. It needs a
// Service that is a mwzookeeper.Reporter.
func (e *Ensemble) WaitNewLeader(t testing.TB, old int) int {
	t.Helper()
	var l int
	wait.For(t, fmt.Sprintf("a leader other than replica %d", old), e.opts.LeaderTimeout, func() bool {
		l = e.Leader()
		return l != 0 && l != old
	})
	for i := 1; i <= e.n; i++ {
		if e.Service(i) != nil {
			e.WaitServing(t, i)
		}
	}
	return l
}

// DoAsync submits req to replica i; the channel yields the reply. A
// second reply to the same request is recorded and fails the test at
// cleanup. A stopped replica answers ErrConnectionLoss.
func (e *Ensemble) DoAsync(i int, req *mwzookeeper.Request) <-chan *mwzookeeper.Response {
	ch := make(chan *mwzookeeper.Response, 1)
	s := e.Service(i)
	if s == nil {
		ch <- &mwzookeeper.Response{Err: fmt.Errorf("%w: svctest: replica %d is stopped",
			mwzookeeper.ErrConnectionLoss, i)}
		return ch
	}
	var once sync.Once
	// The Service gets a copy and the caller the reply as it was when it
	// came: a Service cannot change afterwards what a test checks.
	s.Submit(req.Clone(), func(r *mwzookeeper.Response) {
		answered := false
		once.Do(func() {
			answered = true
			if r != nil {
				r = r.Clone()
			}
			ch <- r
		})
		if !answered {
			e.mu.Lock()
			e.doubles = append(e.doubles, fmt.Sprintf("replica %d answered %s %q twice", i, req.Op, req.Path))
			e.mu.Unlock()
		}
	})
	return ch
}

// Do submits req to replica i and waits for its reply; no reply within
// Options.DoTimeout fails t, naming the op and path.
func (e *Ensemble) Do(t testing.TB, i int, req *mwzookeeper.Request) *mwzookeeper.Response {
	t.Helper()
	select {
	case r := <-e.DoAsync(i, req):
		return r
	case <-time.After(e.opts.DoTimeout):
		t.Fatalf("svctest: replica %d did not answer %s %q (session %#x) within %s%s",
			i, req.Op, req.Path, req.Session, e.opts.DoTimeout, e.Stuck())
		return nil
	}
}

// Session opens a session on replica i and returns its id; an error fails t.
func (e *Ensemble) Session(t testing.TB, i int, timeout time.Duration) int64 {
	t.Helper()
	r := e.Do(t, i, &mwzookeeper.Request{Op: mwzookeeper.OpCreateSession, Timeout: int32(timeout.Milliseconds())})
	if r.Err != nil {
		t.Fatalf("svctest: createSession on replica %d: %v", i, r.Err)
	}
	if r.Session == 0 {
		t.Fatalf("svctest: createSession on replica %d returned session 0", i)
	}
	return r.Session
}

// stopAll stops every running replica and reports double replies.
func (e *Ensemble) stopAll() {
	for i := e.n; i >= 1; i-- {
		if e.Service(i) != nil {
			if err := e.Stop(i); err != nil {
				e.t.Errorf("svctest: stop replica %d: %v", i, err)
			}
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, d := range e.doubles {
		e.t.Errorf("svctest: %s", d)
	}
}
