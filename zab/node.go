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
// owns the core, the store and the callback; see docs/threads.md.
type node struct {
	cfg   Config
	cb    Callback
	lg    logrus.FieldLogger
	store *storage.Store
	tr    transport.Transport // nil for a single peer
	newTr func() (transport.Transport, error)
	core  *core.Core

	mu    sync.Mutex // guards state and the channels' creation
	state int        // stopped, running, closed
	quit  chan struct{}
	done  chan struct{}
	// coreMu guards core. run holds it while it steps the core and takes a
	// Ready, never while it writes to disk or calls the application.
	coreMu sync.Mutex
	// Propose and Sync normally hand a request to run, which takes them in
	// batches (one fsync for many). While run is inside a callback it cannot
	// answer, so calls made then step the core directly under coreMu.
	reqs       chan request
	inCallback atomic.Bool
	wake       chan struct{} // a direct call asks run to process the core's output
	failure    error         // why run stopped by itself; set before done closes

	snaps snapshotter

	now, later []core.Message // split's buffers, reused for every Ready
	held       []uint64
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
	return &node{cfg: cfg, cb: cb, newTr: newTr, lg: cfg.Logger.WithField("peer", cfg.ID)}, nil
}

// Startup opens the storage, restores the application, connects and starts
// the peer's goroutine.
func (n *node) Startup() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.state != stopped {
		return fmt.Errorf("%w: Startup called twice", ErrConfig)
	}
	if err := n.open(); err != nil {
		n.closeLog()
		return err
	}
	n.wake = make(chan struct{}, 1)
	n.reqs = make(chan request, 1024)
	n.quit, n.done = make(chan struct{}), make(chan struct{})
	n.state = running
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
		"log_entries": len(restored.Entries)}).Info("peer started")
	return nil
}

func (n *node) buildCore(restored core.Restored) error {
	var seed [16]byte
	_, _ = rand.Read(seed[:])
	voters, observers := n.cfg.ids()
	c, err := core.New(core.Config{
		ID: n.cfg.ID, Voters: voters, Observers: observers,
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

// Shutdown stops the goroutine, closes the transport and the storage. It
// returns why the peer had stopped by itself, if it had. It must not be
// called from a callback: it waits for the goroutine that runs them.
func (n *node) Shutdown() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.state != running {
		return nil
	}
	n.state = closed
	close(n.quit)
	<-n.done
	err := n.failure
	if n.tr != nil {
		err = errors.Join(err, n.tr.Close())
	}
	err = errors.Join(err, n.store.Close())
	n.closeLog()
	return err
}

func (n *node) closeLog() {
	if n.cfg.closeLog != nil {
		_ = n.cfg.closeLog.Close()
	}
}

// Propose hands a copy of message to the core: the caller may reuse its
// buffer at once.
func (n *node) Propose(message []byte) (TxnCookie, error) {
	if len(message) > MaxMessage {
		return TxnCookie{}, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, len(message), MaxMessage)
	}
	return n.call(request{data: bytes.Clone(message)})
}

func (n *node) Sync() (TxnCookie, error) { return n.call(request{sync: true}) }

// request is a Propose or Sync for the core.
type request struct {
	sync  bool
	data  []byte
	reply chan reply
}

type reply struct {
	seq uint64
	err error
}

// apply runs r on the core; coreMu must be held.
func (n *node) apply(r request) (uint64, error) {
	if r.sync {
		return n.core.Sync()
	}
	return n.core.Propose(r.data, time.Now().UnixNano())
}

// call hands r to the core. Outside callbacks run takes it, batched with
// everything else waiting; during a callback it is applied here.
func (n *node) call(r request) (TxnCookie, error) {
	n.mu.Lock()
	state, done := n.state, n.done
	n.mu.Unlock()
	if state == stopped {
		return TxnCookie{}, ErrNotStarted
	}
	select {
	case <-done:
		if n.failure != nil {
			return TxnCookie{}, fmt.Errorf("%w: %w", ErrClosed, n.failure)
		}
		return TxnCookie{}, ErrClosed
	default:
	}
	if n.inCallback.Load() {
		n.coreMu.Lock()
		seq, err := n.apply(r)
		n.coreMu.Unlock()
		select {
		case n.wake <- struct{}{}:
		default: // a wake-up is pending already
		}
		return TxnCookie{Proposer: n.cfg.ID, Seq: seq}, err
	}
	r.reply = make(chan reply, 1)
	select {
	case n.reqs <- r:
	case <-done:
		return TxnCookie{}, ErrClosed
	}
	select {
	case rep := <-r.reply:
		return TxnCookie{Proposer: n.cfg.ID, Seq: rep.seq}, rep.err
	case <-done:
		return TxnCookie{}, ErrClosed
	}
}

// run is the core's goroutine: it turns time into ticks, hands in messages
// and requests, in batches, and carries out what the core asks.
func (n *node) run() {
	defer close(n.done)
	ticker := time.NewTicker(n.cfg.TickTime)
	defer ticker.Stop()
	var recv <-chan core.Message
	if n.tr != nil {
		recv = n.tr.Recv()
	}
	for n.failure == nil {
		var tick bool
		var msg *core.Message
		var req *request
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
		case r := <-n.reqs:
			req = &r
		case <-n.wake:
		}
		// Whatever woke us, take everything else waiting too, so one disk
		// write serves proposals and acknowledgements alike.
		n.coreMu.Lock()
		switch {
		case tick:
			n.core.Tick(time.Now().UnixNano())
		case msg != nil:
			n.core.Step(*msg, time.Now().UnixNano())
		case req != nil:
			n.answer(*req)
		}
		n.gather(recv)
		n.coreMu.Unlock()
		n.process()
	}
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
			n.core.Step(m, time.Now().UnixNano())
		case r := <-n.reqs:
			n.answer(r)
		default:
			return
		}
	}
}

// answer applies a request and replies; coreMu must be held.
func (n *node) answer(r request) {
	seq, err := n.apply(r)
	r.reply <- reply{seq: seq, err: err}
}
