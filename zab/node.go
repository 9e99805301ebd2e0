package zab

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/zab/core"
	"zablab/zab/storage"
	"zablab/zab/transport"
)

// node is the runtime shared by SingleZab and MultiZab. One goroutine (run)
// owns the core: it alone calls into it, and carries out its output (disk,
// network, callbacks). Propose and Sync only number a request and queue it
// for run. See docs/threads.md.
type node struct {
	cfg   Config
	cb    Callback
	lg    logrus.FieldLogger
	store *storage.Store
	tr    transport.Transport // nil for a single peer
	newTr func() (transport.Transport, error)
	core  *core.Core
	inc   uint64 // this run's incarnation; drawn by Startup

	mu    sync.Mutex   // serializes Startup and Shutdown; never taken by Propose or Sync
	state atomic.Int32 // stopped, running, closed: read by Propose and Sync without mu
	quit  chan struct{}
	done  chan struct{}
	// qmu guards the request queue, the request numbers and accepting. It
	// is never held while anything else happens, so Propose and Sync never
	// wait for run: they work alike from callbacks and other goroutines.
	qmu       sync.Mutex
	queue     []request     // Propose and Sync calls for run, in call order
	spare     []request     // the queue's previous array, reused
	seq, sseq uint64        // numbers handed out to Propose and Sync in this run
	accepting bool          // the core took requests when run last looked
	wake      chan struct{} // Propose and Sync wake run
	failure   error         // why run stopped by itself; set before done closes
	stopErr   error         // failure, published to enqueue before the final Status(LOOKING)

	snaps    snapshotter
	snapDone chan savedSnap // the background snapshot write's result
	split    core.Splitter  // reused for every Ready
	disk     *diskWriter    // syncs broadcast Readys while run goes on (zab/disk.go)
	trace    *tracer        // nil unless trace.file is set (zab/trace.go)
	meter    *meter         // the operator's figures (zab/metrics.go)
	stages   *stager        // own proposals' stage times (zab/stages.go)
	taken    int64          // mono time the batch being processed was taken (its commits known)
}

const (
	stopped = iota
	running
	closed
)

func newNode(cb Callback, cfg Config, newTr func() (transport.Transport, error)) (*node, error) {
	if cb == nil {
		return nil, fmt.Errorf("%w: no Callback", ErrConfig)
	}
	if cfg.Logger == nil {
		cfg.Logger = logrus.StandardLogger()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &node{cfg: cfg, cb: cb, newTr: newTr, lg: cfg.Logger.WithField("peer", cfg.ID),
		stages: newStager(cfg.ID)}, nil
}

// ID is the peer's myid.
func (n *node) ID() uint64 { return n.cfg.ID }

// now is the peer's clock for leader timestamps, in Unix nanoseconds.
func (n *node) now() int64 { return n.cfg.Now().UnixNano() }

// newIncarnation draws a random non-zero 64-bit number: with 2^64 values a
// repeat among a peer's starts is not a practical concern, and nothing has
// to be written to disk before the peer may propose.
func newIncarnation() uint64 {
	var b [8]byte
	for {
		_, _ = rand.Read(b[:])
		if v := binary.LittleEndian.Uint64(b[:]); v != 0 {
			return v
		}
	}
}

// Startup opens the storage, restores the application, connects and starts
// the peer's goroutine. After an error it may be called again, not after
// Shutdown (a new Zab starts again). SetState runs on the caller's goroutine; a Propose
// or Sync it makes fails with ErrNotStarted.
//
// A peer that stopped by itself is still started until Shutdown: Startup
// then names why it stopped and the way out, not "called twice", which
// an application restarting a failed peer had not done.
func (n *node) Startup() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch n.state.Load() {
	case running:
		if err := n.stoppedItself(); err != nil {
			return err
		}
		return fmt.Errorf("%w: Startup called twice", ErrConfig)
	case closed: // Shutdown closed the log output and the storage for good
		return fmt.Errorf("%w: Startup after Shutdown: make a new Zab (SingleZab or MultiZab) to start again", ErrConfig)
	}
	n.inc = newIncarnation()
	if err := n.open(); err != nil {
		// The log output stays open: Startup may be retried (and logs), and
		// Shutdown closes it.
		return err
	}
	n.wake = make(chan struct{}, 1)
	n.snapDone = make(chan savedSnap, 1)
	n.quit, n.done = make(chan struct{}), make(chan struct{})
	n.state.Store(running)
	go n.run()
	return nil
}

// stoppedItself is the error for Startup on a running peer that stopped by
// itself (a storage or SetState failure), or nil while it runs. It counts
// as stopped once it refuses requests with its failure, before its
// goroutine ends: it has said LOOKING by then, and an application that
// restarts it on hearing so must not be told "called twice". Its storage
// and transport stay open until Shutdown, which returns the failure;
// Startup after Shutdown is refused, so a new Zab is the only restart.
func (n *node) stoppedItself() error {
	var why error
	select {
	case <-n.done:
		if why = n.failure; why == nil { // set before done closed
			why = errors.New("its transport closed")
		}
	default:
		n.qmu.Lock()
		why = n.stopErr // published before the final LOOKING
		n.qmu.Unlock()
		if why == nil {
			return nil
		}
	}
	return fmt.Errorf("%w: Startup on a peer that stopped by itself (%w): call Shutdown, then make a new Zab (SingleZab or MultiZab) to start again",
		ErrClosed, why)
}

// openStore opens a peer's storage; a test wraps it to slow a part down.
var openStore = storage.OpenFileStore

// open restores state from disk and builds the core and the transport.
func (n *node) open() error {
	st, err := openStore(n.cfg.DataLogDir, n.cfg.DataSnapDir)
	if err != nil {
		return n.storageErr(err)
	}
	n.store = st
	if fl, ok := st.Log.(*storage.FileLog); ok && n.cfg.SkipFsync {
		fl.SetForceSync(false)
		n.lg.Warn("forceSync=no: the log is not fsynced; a machine crash can lose acknowledged writes")
	}
	restored, snap, err := st.Restore()
	if err == nil { // before the core writes anything
		empty := restored.Stable == (core.StableState{}) && snap == nil && len(restored.Entries) == 0
		err = st.CheckKind(n.kind(), empty)
	}
	for _, w := range st.Warnings() { // known only once Restore has read
		n.lg.Warn("storage repaired on start: " + w)
	}
	if err != nil {
		err = n.storageErr(err)
	} else {
		err = n.snaps.restore(n, snap)
	}
	// The core comes last: building it logs "becoming LOOKING", which must
	// not precede a failure to start (a taken port, a bad trace file).
	if err == nil {
		n.trace, err = openTracer(&n.cfg, n.inc, restored)
	}
	if err == nil && n.newTr != nil {
		n.tr, err = n.newTr()
	}
	if err == nil {
		err = n.buildCore(restored)
	}
	if err != nil {
		if n.meter != nil {
			n.meter.forget() // buildCore published figures of a peer that never runs
		}
		if n.tr != nil {
			_ = n.tr.Close()
			n.tr = nil
		}
		n.trace.close()
		_ = st.Close()
		return err
	}
	n.lg.WithFields(logrus.Fields{"epoch": restored.Stable.CurrentEpoch, "snapshot": restored.Snapshot.Zxid.String(),
		"log_entries": len(restored.Entries), "incarnation": fmt.Sprintf("%#x", n.inc)}).Info("peer started")
	return nil
}

// kind is the kind of peer this is, as its storage records it.
func (n *node) kind() string {
	if n.newTr == nil {
		return storage.KindSingle
	}
	return storage.KindEnsemble
}

// storageErr is err of opening or restoring the storage, naming the key
// of the folder it is about (as every error about the file names its key):
// dataSnapDir only when it is a folder of its own, since it defaults to
// dataLogDir.
func (n *node) storageErr(err error) error {
	var de *storage.DirError
	if !errors.As(err, &de) {
		return fmt.Errorf("%w: %w", ErrStorage, err)
	}
	key := "dataLogDir"
	if !de.Log && n.cfg.DataSnapDir != n.cfg.DataLogDir {
		key = "dataSnapDir"
	}
	return fmt.Errorf("%w: %s=%s: %w", ErrStorage, key, de.Dir, err)
}

func (n *node) buildCore(restored core.Restored) error {
	var seed [16]byte
	_, _ = rand.Read(seed[:])
	voters, observers := n.cfg.ids()
	c, err := core.New(core.Config{
		ID: n.cfg.ID, Incarnation: n.inc, Voters: voters, Observers: observers,
		InitLimit: n.cfg.InitLimit, SyncLimit: n.cfg.SyncLimit, TickTime: n.cfg.TickTime,
		Rand:      mrand.New(mrand.NewPCG(binary.LittleEndian.Uint64(seed[:]), binary.LittleEndian.Uint64(seed[8:]))),
		Snapshots: n.store, Log: n.store.Log, Logger: n.cfg.Logger,
	}, restored)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	n.core = c
	if n.meter == nil {
		n.meter = newMeter(n.cfg.ID, n.cfg.addr(n.cfg.ID), len(voters), &n.snaps.handed)
	}
	n.meter.observe(c, true)
	return nil
}

// Shutdown stops the goroutine, closes the transport, the storage and the
// log output ConfigFromProperties opened (also after a failed Startup,
// which leaves it open for a retry). It returns why the peer had stopped
// by itself, if it had. It may be called from any goroutine but a
// callback's (it waits for the goroutine that runs them), also while
// callbacks call Propose or Sync.
func (n *node) Shutdown() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch n.state.Load() {
	case closed:
		return nil
	case stopped: // never started, or Startup failed: only the log output is open
		n.state.Store(closed)
		return n.cfg.closeLog()
	}
	n.state.Store(closed)
	close(n.quit)
	<-n.done
	n.meter.forget()
	n.trace.stop(n.failure)
	err := n.failure
	if n.tr != nil {
		err = errors.Join(err, n.tr.Close())
	}
	err = errors.Join(err, n.store.Close())
	n.cfg.closeLog()
	return err
}

// Propose hands a copy of message to the core: the caller may reuse its
// buffer at once.
func (n *node) Propose(message []byte) (TxnCookie, error) {
	if len(message) > MaxMessage {
		return TxnCookie{}, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, len(message), MaxMessage)
	}
	seq, err := n.enqueue(request{data: bytes.Clone(message)})
	if err != nil {
		return TxnCookie{}, err
	}
	return TxnCookie{Proposer: n.cfg.ID, Incarnation: n.inc, Seq: seq}, nil
}

// Sync asks for DeliverSync; its cookie has Sync set and a number of its own.
func (n *node) Sync() (TxnCookie, error) {
	seq, err := n.enqueue(request{sync: true})
	if err != nil {
		return TxnCookie{}, err
	}
	return TxnCookie{Proposer: n.cfg.ID, Incarnation: n.inc, Seq: seq, Sync: true}, nil
}

// request is a Propose or Sync call waiting for run.
type request struct {
	sync bool
	seq  uint64
	data []byte
	now  int64 // the peer's clock, for the leader's timestamp
	at   int64 // the monotonic clock, for the write's stages
}

// enqueue is the one way in for the application: number the request, queue
// it for run and wake run. It never waits for run, so it works alike from
// any goroutine and from inside a callback; run takes every queued request
// at once when it wakes (one disk write for all). A request queued just as
// the peer goes LOOKING is dropped by the core, like any proposal in flight
// then: the application hears LOOKING after the call returned.
func (n *node) enqueue(r request) (uint64, error) {
	switch n.state.Load() {
	case stopped:
		return 0, ErrNotStarted
	case closed:
		return 0, ErrClosed
	}
	select {
	case <-n.done:
		if n.failure != nil {
			return 0, fmt.Errorf("%w: %w", ErrClosed, n.failure)
		}
		return 0, ErrClosed
	default:
	}
	r.now, r.at = n.now(), mono()
	n.qmu.Lock()
	if err := n.stopErr; err != nil {
		n.qmu.Unlock()
		return 0, fmt.Errorf("%w: %w", ErrClosed, err)
	}
	if !n.accepting {
		n.qmu.Unlock()
		return 0, ErrNoLeader
	}
	if r.sync {
		n.sseq++
		r.seq = n.sseq
	} else {
		n.seq++
		r.seq = n.seq
	}
	n.queue = append(n.queue, r)
	n.qmu.Unlock()
	select {
	case n.wake <- struct{}{}:
	default: // a wake-up is pending already
	}
	return r.seq, nil
}

// takeRequests hands the queued requests to the core, in call order, and
// publishes whether the core takes requests now. Only run calls it: before
// each batch, so no request outlives a change of leader by more than one
// batch (a new attempt needs a round trip before it can take requests).
func (n *node) takeRequests() {
	n.qmu.Lock()
	q := n.queue
	n.queue, n.spare = n.spare[:0], nil
	n.qmu.Unlock()
	for i, r := range q {
		if r.sync {
			_ = n.core.SyncSeq(r.seq) // ErrNoLeader: dropped, as pending syncs are at LOOKING
		} else {
			if n.core.ProposeSeq(r.seq, r.data, r.now) == nil { // ErrNoLeader: a proposal lost in flight
				n.stages.taken(r.seq, r.at)
			}
		}
		q[i] = request{}
	}
	n.qmu.Lock()
	n.spare = q[:0]
	n.qmu.Unlock()
}

// publish records whether the core takes requests, for enqueue. It runs
// before the callbacks of a batch, so a LOOKING the application hears comes
// after every Propose that returned a cookie.
func (n *node) publish() {
	a := n.core.Accepting()
	n.qmu.Lock()
	n.accepting = a
	n.qmu.Unlock()
}

// run is the core's goroutine: it turns time into ticks, hands in messages,
// and carries out what the core asks, in batches.
func (n *node) run() {
	defer close(n.done)
	n.disk = startDiskWriter(n.store.Log)
	defer n.disk.close()     // Shutdown closes the store next: no write may be left
	defer n.snaps.abandon(n) // likewise
	ticker := time.NewTicker(n.cfg.TickTime)
	defer ticker.Stop()
	deadline := newWakeTimer() // the core's NextDeadline, so an election decides between ticks
	defer deadline.t.Stop()
	var recv <-chan core.Message
	if n.tr != nil {
		recv = n.tr.Recv()
	}
	for n.failure == nil {
		var tick, wake bool
		var msg *core.Message
		select {
		case <-n.quit:
			return
		case <-ticker.C:
			tick = true
		case <-deadline.t.C:
			deadline.armed = false
			wake = true
		case m, ok := <-recv:
			if !ok {
				return
			}
			msg = &m
		case <-n.wake:
		case r := <-n.disk.done:
			n.finished(r)
			if n.failure != nil {
				continue
			}
		case r := <-n.snapDone:
			if err := n.snaps.done(n, r); err != nil {
				n.failure = err
				continue // stop at once: the core must not step on
			}
			if n.snaps.maybeTake(n); n.failure != nil { // deliveries counted on meanwhile
				continue // its wait for the disk writer failed: stop at once
			}
		}
		// Whatever woke us, take every request and message waiting too, so
		// one disk write serves proposals and acknowledgements alike.
		n.takeRequests()
		n.step(tick, wake, msg)
		n.gather(recv)
		n.publish()
		n.process()
		n.trace.flush()
		n.armDeadline(deadline)
	}
	n.stopFailed()
}

// step hands the core what woke the loop: a tick, a message or its own
// deadline (a request or a finished disk write needs no step of its own).
func (n *node) step(tick, wake bool, msg *core.Message) {
	switch {
	case tick:
		n.core.Tick(n.now())
		n.meter.observe(n.core, true)
	case msg != nil:
		n.trace.recv(msg)
		n.core.Step(*msg, n.now())
	case wake:
		n.core.Wake(n.now())
	}
}

// stopFailed ends the loop after a failure the peer cannot go on from
// safely (a disk error): it stops taking requests and tells the
// application it is LOOKING.
func (n *node) stopFailed() {
	n.meter.forget()
	n.snaps.abandon(n)
	n.lg.WithError(n.failure).Error("peer stopped: it cannot go on safely")
	// Refuse requests before the application hears LOOKING: a Propose it
	// makes on hearing it must fail, not return a cookie nobody takes.
	n.qmu.Lock()
	n.accepting, n.stopErr = false, n.failure
	n.qmu.Unlock()
	n.cb.Status(Looking, "") // messages in flight are lost: the application must know
}

// wakeTimer fires at the core's deadline; armed and at say what it is set
// to, so the broadcast loop touches the timer only when the deadline changes.
type wakeTimer struct {
	t     *time.Timer
	armed bool
	at    int64
}

// newWakeTimer returns a timer that is not armed.
func newWakeTimer() *wakeTimer {
	w := &wakeTimer{t: time.NewTimer(time.Hour)}
	w.t.Stop()
	return w
}

// armDeadline sets w to fire at the core's next deadline, if it has one.
func (n *node) armDeadline(w *wakeTimer) {
	at, ok := n.core.NextDeadline()
	if ok == w.armed && (!ok || at == w.at) {
		return // unchanged: nothing to do on the hot path
	}
	w.t.Stop()
	w.armed, w.at = ok, at
	if ok {
		w.t.Reset(time.Duration(max(at-n.now(), 0)))
	}
}

// gather takes whatever else has arrived.
func (n *node) gather(recv <-chan core.Message) {
	for i := 0; i < 4096; i++ {
		select {
		case m, ok := <-recv:
			if !ok {
				return
			}
			n.trace.recv(&m)
			n.core.Step(m, n.now())
		default:
			return
		}
	}
}
