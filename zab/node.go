package zab

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"sync"
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
	// Ready, never while it writes to disk or calls the application, so
	// Propose and Sync, even from inside a callback, only wait for a step.
	coreMu  sync.Mutex
	wake    chan struct{} // Propose and Sync ask run to process the core's output
	failure error         // why run stopped by itself; set before done closes

	snaps snapshotter
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
	data := bytes.Clone(message)
	return n.call(func() (uint64, error) { return n.core.Propose(data, time.Now().UnixNano()) })
}

func (n *node) Sync() (TxnCookie, error) {
	return n.call(func() (uint64, error) { return n.core.Sync() })
}

// call runs f on the core and wakes the core's goroutine to carry out the
// result. Callbacks may call it: run never holds coreMu while calling them.
func (n *node) call(f func() (uint64, error)) (TxnCookie, error) {
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
	n.coreMu.Lock()
	seq, err := f()
	n.coreMu.Unlock()
	if err != nil {
		return TxnCookie{}, err
	}
	select {
	case n.wake <- struct{}{}:
	default: // a wake-up is pending already
	}
	return TxnCookie{Proposer: n.cfg.ID, Seq: seq}, nil
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
		select {
		case <-n.quit:
			return
		case <-ticker.C:
			n.coreMu.Lock()
			n.core.Tick(time.Now().UnixNano())
			n.coreMu.Unlock()
		case m, ok := <-recv:
			if !ok {
				return
			}
			n.coreMu.Lock()
			n.core.Step(m, time.Now().UnixNano())
			n.gather(recv)
			n.coreMu.Unlock()
		case <-n.wake:
		}
		n.process()
	}
	n.lg.WithError(n.failure).Error("peer stopped: it cannot go on safely")
	n.cb.Status(Looking, "") // messages in flight are lost: the application must know
}

// gather steps whatever else has arrived, so one disk write serves it all.
func (n *node) gather(recv <-chan core.Message) {
	for i := 0; i < 4096; i++ {
		select {
		case m, ok := <-recv:
			if !ok {
				return
			}
			n.core.Step(m, time.Now().UnixNano())
		default:
			return
		}
	}
}
