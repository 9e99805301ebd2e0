package svctest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"

	"zablab/mwzookeeper"
	"zablab/properties"
)

// fake is a Service without Zab: it serves at once, opens sessions
// numbered from 1, never answers getData and answers delete twice.
type fake struct {
	host mwzookeeper.Host
	p    *properties.Properties
	next int64
}

func (f *fake) Start(p *properties.Properties, h mwzookeeper.Host) error {
	f.host, f.p = h, p
	h.Serving(true)
	return nil
}

func (f *fake) Submit(req *mwzookeeper.Request, reply func(*mwzookeeper.Response)) {
	switch req.Op {
	case mwzookeeper.OpCreateSession:
		f.next++
		f.host.Notify(f.next, mwzookeeper.WatchEvent{Type: mwzookeeper.EventNodeCreated, Path: "/x"})
		reply(&mwzookeeper.Response{Session: f.next})
	case mwzookeeper.OpGetData:
	case mwzookeeper.OpDelete:
		reply(&mwzookeeper.Response{})
		reply(&mwzookeeper.Response{})
	default:
		reply(&mwzookeeper.Response{Err: mwzookeeper.ErrUnimplemented})
	}
}

func (f *fake) Stop() error { f.host.Serving(false); return nil }

func newFake() mwzookeeper.Service { return &fake{} }

type recorder struct {
	testing.TB
	msgs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
	panic(r)
}
func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func TestEnsembleWritesPropertiesAndRunsReplicas(t *testing.T) {
	e := Start(t, newFake, 3, Options{SnapCount: 7, Skews: []time.Duration{0, time.Second}, NoZab: true})
	if e.N() != 3 {
		t.Fatalf("N = %d", e.N())
	}
	for i := 1; i <= 3; i++ {
		p := e.Props(i)
		if id, _ := p.Int("myid", 0); id != i {
			t.Errorf("replica %d: myid %d", i, id)
		}
		if _, ok := p.Get("peer3"); !ok || !mwzookeeper.Ensemble(p) {
			t.Errorf("replica %d: no peer3 in %s", i, p.File())
		}
		if v := p.String("snapCount", ""); v != "7" {
			t.Errorf("replica %d: snapCount %q", i, v)
		}
		if !strings.HasSuffix(p.Path("dataLogDir", ""), "replica"+string(rune('0'+i))+"/log") {
			t.Errorf("replica %d: dataLogDir %q", i, p.Path("dataLogDir", ""))
		}
	}
	if d := e.Host(2).Now().Sub(time.Now()); d < 900*time.Millisecond {
		t.Errorf("replica 2's clock is %s ahead, want 1s", d)
	}
	s := e.Session(t, 2, time.Second)
	if ev := e.Host(2).Events(s); len(ev) != 1 || ev[0].Path != "/x" {
		t.Errorf("events %v", ev)
	}
	if err := e.Stop(2); err != nil || e.Host(2).IsServing() {
		t.Fatalf("stop: %v, serving %v", err, e.Host(2).IsServing())
	}
	if r := e.Do(t, 2, &mwzookeeper.Request{Op: mwzookeeper.OpExists}); !errors.Is(r.Err, mwzookeeper.ErrConnectionLoss) {
		t.Errorf("stopped replica answered %v", r.Err)
	}
	if err := e.Restart(2); err != nil {
		t.Fatal(err)
	}
	e.WaitServing(t, 2)
}

func TestSingleReplicaHasNoPeers(t *testing.T) {
	e := Start(t, newFake, 1, Options{})
	if mwzookeeper.Ensemble(e.Props(1)) {
		t.Fatalf("single replica has peer keys: %v", e.Props(1).Keys())
	}
}

func TestDoFailsInsteadOfHanging(t *testing.T) {
	e := Start(t, newFake, 1, Options{DoTimeout: 20 * time.Millisecond})
	r := &recorder{TB: t}
	func() {
		defer func() { _ = recover() }()
		e.Do(r, 1, &mwzookeeper.Request{Op: mwzookeeper.OpGetData, Path: "/never"})
	}()
	if len(r.msgs) != 1 || !strings.Contains(r.msgs[0], "did not answer") {
		t.Fatalf("Do with no reply: %v", r.msgs)
	}
}

func TestDoubleReplyFailsAtCleanup(t *testing.T) {
	r := &recorder{TB: t}
	e := &Ensemble{t: r, f: newFake, n: 1, hosts: []*Host{nil, NewHost("x", 0)},
		props: []*properties.Properties{nil, properties.New()}, svcs: make([]mwzookeeper.Service, 2)}
	if err := e.startReplica(1); err != nil {
		t.Fatal(err)
	}
	<-e.DoAsync(1, &mwzookeeper.Request{Op: mwzookeeper.OpDelete, Path: "/twice"})
	e.stopAll()
	if len(r.msgs) != 1 {
		t.Fatalf("double reply not reported: %v", r.msgs)
	}
}

// TestServingHintSaysWhatWasSeen: a replica that never serves is
// explained by what its Host saw, not by a guess about elections.
func TestServingHintSaysWhatWasSeen(t *testing.T) {
	h := NewHost("hint", 0)
	if got := servingHint(h, nil); !strings.Contains(got, "never called Host.Serving(true)") {
		t.Errorf("no Serving call: hint %q", got)
	}
	h.Serving(true)
	h.Serving(false)
	if got := servingHint(h, nil); !strings.Contains(got, "last Host.Serving call was Serving(false)") || !strings.Contains(got, "after 2 call(s)") {
		t.Errorf("Serving(true) then (false): hint %q", got)
	}
}

// TestPeerLeftFailsWhileTheAddressIsTaken: a stopped replica whose peer
// address is still bound (its Zab peer runs on) has not left.
func TestPeerLeftFailsWhileTheAddressIsTaken(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := PeerLeft(addr, 100*time.Millisecond); !errors.Is(err, ErrStillRunning) {
		_ = l.Close()
		t.Fatalf("PeerLeft(%s) while it is bound: %v, want ErrStillRunning", addr, err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := PeerLeft(addr, 5*time.Second); err != nil {
		t.Fatalf("PeerLeft(%s) after its listener closed: %v", addr, err)
	}
}

// TestDataDirNamesNoTest: the folder an ensemble's properties name says
// nothing of the test, and it is gone when the test ends.
func TestDataDirNamesNoTest(t *testing.T) {
	var dir string
	t.Run("InnerTestName", func(t *testing.T) {
		dir = DataDir(t)
		if strings.Contains(dir, "InnerTestName") || strings.Contains(dir, "TestDataDirNamesNoTest") {
			t.Errorf("DataDir %s names the test", dir)
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			t.Errorf("DataDir %s: %v", dir, err)
		}
	})
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("DataDir %s is still there after its test (%v)", dir, err)
	}
}

// hangs is a Service whose Start waits until release is closed.
type hangs struct {
	fake
	release chan struct{}
}

func (h *hangs) Start(p *properties.Properties, host mwzookeeper.Host) error {
	<-h.release
	return h.fake.Start(p, host)
}

// TestStartThatNeverReturnsFailsWithinTheLimit: a Start (or a factory)
// that does not return used to hold the test binary until go test's own
// timeout (a quarter of an hour per hand-in of a class); it fails after
// LeaderTimeout, saying which call hung.
func TestStartThatNeverReturnsFailsWithinTheLimit(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	for name, c := range map[string]struct {
		f    mwzookeeper.Factory
		want string
	}{
		"Start": {func() mwzookeeper.Service { return &hangs{release: release} }, "Start did not return within 300ms"},
		"New":   {func() mwzookeeper.Service { <-release; return newFake() }, "the factory (New) did not return a Service within 300ms"},
	} {
		r := &recorder{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer func() { _ = recover() }()
			Start(r, c.f, 1, Options{LeaderTimeout: 300 * time.Millisecond, NoZab: true})
		}()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%s: svctest.Start still waits for a call that never returns, a minute after its 300ms limit", name)
		}
		if len(r.msgs) != 1 || !strings.Contains(r.msgs[0], c.want) {
			t.Errorf("%s: want one failure that says %q, got %q", name, c.want, r.msgs)
		}
	}
}

// deadlocked starts but never serves, and its Stats waits for a lock that
// is never freed (until release is closed).
type deadlocked struct {
	fake
	release chan struct{}
}

func (d *deadlocked) Start(p *properties.Properties, h mwzookeeper.Host) error {
	d.host, d.p = h, p
	return nil
}

func (d *deadlocked) Stats() mwzookeeper.Stats {
	<-d.release
	return mwzookeeper.Stats{Role: "looking"}
}

// TestDeadlockedStatsDoesNotHoldTheHint: the hint for a replica that never
// serves asks its Stats, which takes the Service's lock; a deadlocked
// Service held the test binary there until go test's own timeout.
func TestDeadlockedStatsDoesNotHoldTheHint(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { _ = recover() }()
		Start(r, func() mwzookeeper.Service { return &deadlocked{release: release} }, 1,
			Options{LeaderTimeout: 300 * time.Millisecond, NoZab: true})
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the hint still waits for a Stats that never returns, a minute later")
	}
	if len(r.msgs) != 1 || !strings.Contains(r.msgs[0], "its Stats did not return within 2s") ||
		!strings.Contains(r.msgs[0], "never called Host.Serving(true)") {
		t.Fatalf("want one failure that says Stats did not return, got %q", r.msgs)
	}
}

// TestEachStartGetsItsOwnLogger: what a Service leaves in its Host's
// logger (a field, a hook) must not be there for the next Service the
// replica starts after a stop: the logger would be a store that survives
// the crash without the disk.
func TestEachStartGetsItsOwnLogger(t *testing.T) {
	h := NewHost("logs", 0)
	first, ok1 := h.ForService().Logger().(*logrus.Entry)
	second, ok2 := h.ForService().Logger().(*logrus.Entry)
	if !ok1 || !ok2 {
		t.Fatalf("the Host's logger is %T, want a *logrus.Entry", h.ForService().Logger())
	}
	first.Data["tree"] = "/a=1"
	first.Logger.AddHook(&test.Hook{})
	if _, kept := second.Data["tree"]; kept || len(second.Logger.Hooks) != 0 || first.Logger == second.Logger {
		t.Errorf("the second Start's logger shows what the first left: fields %v, %d hook levels, same logger %v",
			second.Data, len(second.Logger.Hooks), first.Logger == second.Logger)
	}
}
