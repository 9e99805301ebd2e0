package svctest

import (
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"zablab/mwzookeeper"
	"zablab/properties"
)

// late is a Service whose Start returns only once release is closed (after
// svctest gave up on it); it then serves and holds a listener until Stop.
type late struct {
	fake
	release <-chan struct{}
	started chan struct{} // closed when Start returned
	stopped chan struct{} // closed by Stop
	addr    string        // what it listens on; "" for any port
	ln      net.Listener
}

func (l *late) Start(p *properties.Properties, h mwzookeeper.Host) error {
	defer close(l.started)
	<-l.release
	addr := l.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	l.ln = ln
	return l.fake.Start(p, h)
}

func (l *late) Stop() error {
	l.ln.Close()
	close(l.stopped)
	return l.fake.Stop()
}

// TestLateStartIsStopped: a Start that returns after LeaderTimeout leaves
// a running Service (its goroutines, its Zab peer, its ports) that no one
// owns: svctest.Start failed, e.svcs never got it, and stopAll does not
// know it. It must be stopped once its Start returns.
func TestLateStartIsStopped(t *testing.T) {
	release := make(chan struct{})
	s := &late{release: release, started: make(chan struct{}), stopped: make(chan struct{})}
	t.Run("ensemble", func(t *testing.T) {
		r := &recorder{TB: t}
		func() {
			defer func() { _ = recover() }()
			Start(r, func() mwzookeeper.Service { return s }, 1, Options{LeaderTimeout: 300 * time.Millisecond, NoZab: true})
		}()
		if len(r.msgs) != 1 || !strings.Contains(r.msgs[0], "Start did not return within 300ms") {
			t.Fatalf("want svctest.Start to fail on the hung Start, got %q", r.msgs)
		}
	}) // the ensemble's cleanups (stopAll) have run
	close(release)
	<-s.started
	select {
	case <-s.stopped:
	case <-time.After(5 * time.Second):
		t.Fatalf("a Service whose Start returned after LeaderTimeout still runs 5s later (listening on %s, Host serving %v): no one stops it",
			s.ln.Addr(), s.host != nil)
	}
}

// TestRestartAfterLateStart: Restart of a replica whose previous Start
// timed out; the late Service, started meanwhile, keeps the replica's
// port, so every later Restart fails "address already in use" even with
// its retry loop, and the Host of the replica says it serves while the
// Ensemble has no Service for it.
func TestRestartAfterLateStart(t *testing.T) {
	probe, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := probe.Addr().String()
	probe.Close()
	release := make(chan struct{})
	var calls atomic.Int32
	var hung *late
	f := func() mwzookeeper.Service {
		l := &late{release: nil, started: make(chan struct{}), stopped: make(chan struct{}), addr: addr}
		if calls.Add(1) == 2 {
			l.release = release
			hung = l
		} else {
			c := make(chan struct{})
			close(c)
			l.release = c
		}
		return l
	}
	e := Start(t, f, 1, Options{LeaderTimeout: 300 * time.Millisecond, NoZab: true})
	err = e.Restart(1)
	if !errors.Is(err, ErrStartHangs) {
		t.Fatalf("first Restart: want ErrStartHangs, got %v", err)
	}
	close(release)
	<-hung.started
	t.Cleanup(func() {
		if hung.ln != nil {
			hung.ln.Close()
		}
	})
	if e.Service(1) == nil && e.Host(1).IsServing() {
		t.Errorf("replica 1 has no Service in the Ensemble, but its Host says it serves (the late Service told it)")
	}
	if err := e.Restart(1); err != nil {
		t.Errorf("second Restart, after the late Start returned: %v", err)
	}
}
