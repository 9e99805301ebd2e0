package zab

import (
	"crypto/rand"
	"encoding/binary"
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

	mu      sync.Mutex // guards state
	state   int        // stopped, running, closed
	reqs    chan request
	quit    chan struct{}
	done    chan struct{}
	failure error // why run stopped by itself; read after done

	snaps snapshotter
}

const (
	stopped = iota
	running
	closed
)

// request is a Propose or Sync handed to the core's goroutine.
type request struct {
	sync  bool
	data  []byte
	reply chan reply
}

type reply struct {
	cookie TxnCookie
	err    error
}

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
		return err
	}
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
		return fmt.Errorf("%w: %w", ErrStorage, err)
	}
	n.core = c
	return nil
}

// Shutdown stops the goroutine, closes the transport and the storage.
func (n *node) Shutdown() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.state != running {
		return nil
	}
	n.state = closed
	close(n.quit)
	<-n.done
	var err error
	if n.tr != nil {
		err = n.tr.Close()
	}
	if cerr := n.store.Close(); err == nil {
		err = cerr
	}
	if n.cfg.closeLog != nil {
		_ = n.cfg.closeLog.Close()
	}
	return err
}

func (n *node) Propose(message []byte) (TxnCookie, error) {
	if len(message) > MaxMessage {
		return TxnCookie{}, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, len(message), MaxMessage)
	}
	return n.ask(request{data: message})
}

func (n *node) Sync() (TxnCookie, error) { return n.ask(request{sync: true}) }

// ask hands r to the core's goroutine and waits for its answer.
func (n *node) ask(r request) (TxnCookie, error) {
	n.mu.Lock()
	state, reqs, done := n.state, n.reqs, n.done
	n.mu.Unlock()
	if state == stopped {
		return TxnCookie{}, ErrNotStarted
	}
	r.reply = make(chan reply, 1)
	select {
	case reqs <- r:
	case <-done:
		return TxnCookie{}, ErrClosed
	}
	select {
	case rep := <-r.reply:
		return rep.cookie, rep.err
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
		select {
		case <-n.quit:
			return
		case <-ticker.C:
			n.core.Tick(time.Now().UnixNano())
		case m, ok := <-recv:
			if !ok {
				return
			}
			n.core.Step(m, time.Now().UnixNano())
		case r := <-n.reqs:
			n.handle(r)
		}
		n.gather(recv)
		n.process()
	}
	n.lg.WithError(n.failure).Error("peer stopped: it cannot go on safely")
}

// gather takes whatever else is waiting, so one disk write serves them all.
func (n *node) gather(recv <-chan core.Message) {
	for i := 0; i < 4096; i++ {
		select {
		case m, ok := <-recv:
			if !ok {
				return
			}
			n.core.Step(m, time.Now().UnixNano())
		case r := <-n.reqs:
			n.handle(r)
		default:
			return
		}
	}
}

func (n *node) handle(r request) {
	var seq uint64
	var err error
	if r.sync {
		seq, err = n.core.Sync()
	} else {
		seq, err = n.core.Propose(r.data, time.Now().UnixNano())
	}
	r.reply <- reply{cookie: TxnCookie{Proposer: n.cfg.ID, Seq: seq}, err: err}
}
