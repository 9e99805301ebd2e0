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

// node is the runtime shared by SingleZab and MultiZab: one goroutine (run)
// carries out the core's output (disk, network, callbacks); every call into
// the core, from run, Propose or Sync, takes coreMu. See docs/threads.md.
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
	// coreMu guards core: run holds it while it steps the core and takes a
	// Ready, Propose and Sync while they step it; nobody holds it while
	// writing to disk or calling the application, so callbacks may call
	// Propose and Sync.
	coreMu  sync.Mutex
	wake    chan struct{} // Propose and Sync ask run to carry out the core's new output
	failure error         // why run stopped by itself; set before done closes

	snaps    snapshotter
	snapDone chan savedSnap // the background snapshot write's result
	split    core.Splitter  // reused for every Ready
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
	return &node{cfg: cfg, cb: cb, newTr: newTr, lg: cfg.Logger.WithField("peer", cfg.ID)}, nil
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
// the peer's goroutine. SetState runs on the caller's goroutine; a Propose
// or Sync it makes fails with ErrNotStarted.
func (n *node) Startup() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.state.Load() != stopped {
		return fmt.Errorf("%w: Startup called twice", ErrConfig)
	}
	n.inc = newIncarnation()
	if err := n.open(); err != nil {
		n.cfg.closeLog()
		return err
	}
	n.wake = make(chan struct{}, 1)
	n.snapDone = make(chan savedSnap, 1)
	n.quit, n.done = make(chan struct{}), make(chan struct{})
	n.state.Store(running)
	go n.run()
	return nil
}

// open restores state from disk and builds the core and the transport.
func (n *node) open() error {
	st, err := storage.OpenFileStore(n.cfg.DataLogDir, n.cfg.DataSnapDir)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrStorage, err)
	}
	n.store = st
	restored, snap, err := st.Restore()
	for _, w := range st.Warnings() { // known only once Restore has read
		n.lg.Warn("storage repaired on start: " + w)
	}
	if err == nil {
		err = n.snaps.restore(n, snap)
	}
	if err == nil {
		err = n.buildCore(restored)
	}
	if err == nil && n.newTr != nil {
		n.tr, err = n.newTr()
	}
	if err != nil {
		_ = st.Close()
		return err
	}
	n.lg.WithFields(logrus.Fields{"epoch": restored.Stable.CurrentEpoch, "snapshot": restored.Snapshot.Zxid,
		"log_entries": len(restored.Entries), "incarnation": fmt.Sprintf("%#x", n.inc)}).Info("peer started")
	return nil
}

func (n *node) buildCore(restored core.Restored) error {
	var seed [16]byte
	_, _ = rand.Read(seed[:])
	voters, observers := n.cfg.ids()
	c, err := core.New(core.Config{
		ID: n.cfg.ID, Incarnation: n.inc, Voters: voters, Observers: observers,
		InitLimit: n.cfg.InitLimit, SyncLimit: n.cfg.SyncLimit,
		Rand:      mrand.New(mrand.NewPCG(binary.LittleEndian.Uint64(seed[:]), binary.LittleEndian.Uint64(seed[8:]))),
		Snapshots: n.store, Logger: n.cfg.Logger,
	}, restored)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	n.core = c
	return nil
}

// Shutdown stops the goroutine, closes the transport, the storage and the
// log output ConfigFromProperties opened. It returns why the peer had
// stopped by itself, if it had. It may be called from any goroutine but a
// callback's (it waits for the goroutine that runs them), also while
// callbacks call Propose or Sync.
func (n *node) Shutdown() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.state.Load() != running {
		return nil
	}
	n.state.Store(closed)
	close(n.quit)
	<-n.done
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
	data := bytes.Clone(message)
	seq, err := n.enter(func(c *core.Core) (uint64, error) { return c.Propose(data, n.now()) })
	if err != nil {
		return TxnCookie{}, err
	}
	return TxnCookie{Proposer: n.cfg.ID, Incarnation: n.inc, Seq: seq}, nil
}

// Sync asks for DeliverSync; its cookie has Sync set and a number of its own.
func (n *node) Sync() (TxnCookie, error) {
	seq, err := n.enter(func(c *core.Core) (uint64, error) { return c.Sync() })
	if err != nil {
		return TxnCookie{}, err
	}
	return TxnCookie{Proposer: n.cfg.ID, Incarnation: n.inc, Seq: seq, Sync: true}, nil
}

// enter is the one way in for the application: step the core under coreMu,
// then wake run to carry out the output. It never waits for run, so it
// works alike from any goroutine and from inside a callback. run batches
// whatever the core has gathered when it wakes: one disk write serves every
// proposal made meanwhile.
func (n *node) enter(step func(*core.Core) (uint64, error)) (uint64, error) {
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
	n.coreMu.Lock()
	seq, err := step(n.core)
	n.coreMu.Unlock()
	select {
	case n.wake <- struct{}{}:
	default: // a wake-up is pending already
	}
	return seq, err
}

// run is the core's goroutine: it turns time into ticks, hands in messages,
// and carries out what the core asks, in batches.
func (n *node) run() {
	defer close(n.done)
	defer n.snaps.abandon(n) // Shutdown closes the store next: no write may be left
	ticker := time.NewTicker(n.cfg.TickTime)
	defer ticker.Stop()
	var recv <-chan core.Message
	if n.tr != nil {
		recv = n.tr.Recv()
	}
	for n.failure == nil {
		var tick bool
		var msg *core.Message
		select {
		case <-n.quit:
			return
		case <-ticker.C:
			tick = true
		case m, ok := <-recv:
			if !ok {
				return
			}
			msg = &m
		case <-n.wake:
		case r := <-n.snapDone:
			if err := n.snaps.done(n, r); err != nil {
				n.failure = err
				break
			}
			n.snaps.maybeTake(n) // deliveries counted on meanwhile
		}
		// Whatever woke us, take every message waiting too, so one disk
		// write serves proposals and acknowledgements alike.
		n.coreMu.Lock()
		switch {
		case tick:
			n.core.Tick(n.now())
		case msg != nil:
			n.core.Step(*msg, n.now())
		}
		n.gather(recv)
		n.coreMu.Unlock()
		n.process()
	}
	n.snaps.abandon(n)
	n.lg.WithError(n.failure).Error("peer stopped: it cannot go on safely")
	n.cb.Status(Looking, "") // messages in flight are lost: the application must know
}

// gather takes whatever else has arrived; coreMu must be held.
func (n *node) gather(recv <-chan core.Message) {
	for i := 0; i < 4096; i++ {
		select {
		case m, ok := <-recv:
			if !ok {
				return
			}
			n.core.Step(m, n.now())
		default:
			return
		}
	}
}
