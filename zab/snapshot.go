package zab

import (
	"bytes"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"zablab/zab/core"
)

// snapshotter takes a snapshot every SnapCount deliveries and installs the
// ones that arrive. GetState runs on a goroutine of its own, streaming the
// state to the snapshot file, while the protocol goroutine goes on with
// the protocol (acknowledgements, heartbeats, disk writes) but holds every
// callback back in a queue: the application's state stays the one between
// two deliveries, callbacks still never run concurrently, and a large state
// no longer costs the peer its place in the ensemble (docs/zab.md has the
// measurement). The queued callbacks run, in order, once the snapshot is
// written.
type snapshotter struct {
	since      int        // deliveries since the newest snapshot
	sinceBytes int64      // their data (snapBytesDue)
	lastSize   int64      // the newest snapshot's size, taken or restored
	last       core.Entry // the newest delivery
	// handed is last's zxid for other goroutines (PeerDeliveredAt): set
	// with last, before the application's callback runs.
	handed atomic.Uint64
	prev   core.Zxid     // the snapshot before the newest: log files up to it may go
	saving bool          // GetState and the write run; the result comes on node.snapDone
	queued []core.Event  // callbacks held back while saving
	tidied chan struct{} // closed when the files the last snapshot made unnecessary are gone
}

// savedSnap is the result of a background snapshot write.
type savedSnap struct {
	meta core.SnapshotMeta
	size int64 // bytes GetState wrote
	err  error
}

func (s *snapshotter) delivered(e core.Entry) {
	s.since++
	s.sinceBytes += int64(len(e.Data))
	s.last = e
	s.handed.Store(uint64(e.Zxid))
}

// restore hands a snapshot (nil: none) to the application.
func (s *snapshotter) restore(n *node, snap *core.Snapshot) error {
	if snap == nil {
		return nil
	}
	m := snap.Meta
	s.last = core.Entry{Zxid: m.Zxid, Timestamp: m.Timestamp, Proposer: m.Proposer, Incarnation: m.Incarnation, Seq: m.Seq}
	s.since, s.sinceBytes, s.lastSize = 0, 0, int64(len(snap.Data))
	// The restored snapshot is the one before the next: once that is taken,
	// compact removes what precedes this one. Left at zero, a peer
	// restarted after every snapshot would never compact.
	s.prev = m.Zxid
	s.handed.Store(uint64(m.Zxid))
	c := cookieOf(s.last)
	if err := n.cb.SetState(bytes.NewReader(snap.Data), c); err != nil {
		return fmt.Errorf("zab: SetState at %s: %w", snap.Meta.Zxid, err)
	}
	return nil
}

// maybeTake starts a snapshot once SnapCount deliveries have passed, or
// their data reached SnapBytes (snapBytesDue). While one is being written
// no other starts. A failed snapshot is logged and tried again as many
// deliveries later: nothing is lost, the log just stays longer.
func (s *snapshotter) maybeTake(n *node) {
	due := s.since >= n.cfg.SnapCount || s.snapBytesDue(n.cfg.SnapBytes)
	if s.saving || !due || s.last.Zxid == 0 || s.tidying() {
		return
	}
	// The log on disk must reach the snapshot: a quorum of followers may
	// have committed what the disk writer has not synced here yet, and a
	// snapshot above the durable log would leave a gap behind it should
	// it be found damaged and an older one be restored instead.
	if n.drain(); n.failure != nil {
		return
	}
	s.since, s.sinceBytes = 0, 0
	l := s.last
	meta := core.SnapshotMeta{Zxid: l.Zxid, Timestamp: l.Timestamp, Proposer: l.Proposer, Incarnation: l.Incarnation, Seq: l.Seq}
	prev := s.prev
	if prev != 0 {
		// Memory keeps the log back to the previous snapshot, which is
		// durable: a follower behind it gets that snapshot. Memory goes
		// first, so the core never asks the disk for what is removed next.
		n.core.Compact(prev)
	}
	s.saving = true
	tidied := make(chan struct{})
	s.tidied = tidied
	go func() {
		defer close(tidied)
		start := time.Now()
		size, err := saveSnapshot(n, meta)
		if took := time.Since(start); took > time.Duration(n.cfg.SyncLimit)*n.cfg.TickTime {
			n.lg.WithField("took", took).Info("snapshot took longer than syncLimit; callbacks waited meanwhile")
		}
		n.snapDone <- savedSnap{meta: meta, size: size, err: err} // buffered: the callbacks go on now
		if err == nil && prev != 0 {
			// After the callbacks are released and off the protocol
			// goroutine: unlinking a 64 MiB log file took 30-130 ms, which
			// stalled every write (measured under load). Snapshots below
			// prev go with the log files: without the log after them they
			// are no fallback (a restore would have a gap).
			if err := n.store.Compact(prev); err != nil {
				n.lg.WithError(err).Warn("old snapshots or log files not removed")
			}
		}
	}()
}

// tidying says whether the files of an older snapshot are still being
// removed; the next snapshot waits for that.
func (s *snapshotter) tidying() bool {
	if s.tidied == nil {
		return false
	}
	select {
	case <-s.tidied:
		s.tidied = nil
		return false
	default:
		return true
	}
}

// hold queues evs while a snapshot is written; false: run them now.
func (s *snapshotter) hold(evs []core.Event) bool {
	if s.saving {
		s.queued = append(s.queued, evs...)
	}
	return s.saving
}

// done finishes a background write: the new snapshot is the one the next
// compaction keeps the log back to. Then the held callbacks run.
func (s *snapshotter) done(n *node, r savedSnap) error {
	s.saving = false
	if r.err != nil {
		n.lg.WithError(r.err).Error("no snapshot taken")
	} else {
		s.prev, s.lastSize = r.meta.Zxid, r.size
		n.lg.WithField("zxid", r.meta.Zxid.String()).Info("snapshot taken")
	}
	q := s.queued
	s.queued = nil
	return n.callbacks(q)
}

// wait blocks until a snapshot being written is done and runs the held
// callbacks, and until the files it made unnecessary are gone: an
// installed snapshot removes files too.
func (s *snapshotter) wait(n *node) error {
	var err error
	if s.saving {
		err = s.done(n, <-n.snapDone)
	}
	s.waitTidied()
	return err
}

func (s *snapshotter) waitTidied() {
	if s.tidied != nil {
		<-s.tidied
		s.tidied = nil
	}
}

// abandon waits for a snapshot being written and drops the held callbacks:
// the peer stops.
func (s *snapshotter) abandon(n *node) {
	if s.saving {
		<-n.snapDone
		s.saving, s.queued = false, nil
	}
	s.waitTidied() // the store closes next
}

// saveSnapshot streams GetState to the snapshot store when it can, so a
// large state is not held in memory twice. It returns the state's size.
func saveSnapshot(n *node, meta core.SnapshotMeta) (int64, error) {
	type streamer interface {
		SaveFrom(core.SnapshotMeta, func(io.Writer) error) error
	}
	if st, ok := n.store.Snapshots.(streamer); ok {
		var size int64
		err := st.SaveFrom(meta, func(w io.Writer) error {
			cw := &countingWriter{w: w}
			err := n.cb.GetState(cw)
			size = cw.n
			return err
		})
		return size, err
	}
	var buf bytes.Buffer
	if err := n.cb.GetState(&buf); err != nil {
		return 0, fmt.Errorf("GetState: %w", err)
	}
	return int64(buf.Len()), n.store.Snapshots.Save(core.Snapshot{Meta: meta, Data: buf.Bytes()})
}
