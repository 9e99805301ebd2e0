package zab

import (
	"bytes"
	"fmt"
	"io"
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
	since  int          // deliveries since the newest snapshot
	last   core.Entry   // the newest delivery
	prev   core.Zxid    // the snapshot before the newest: log files up to it may go
	saving bool         // GetState and the write run; the result comes on node.snapDone
	queued []core.Event // callbacks held back while saving
}

// savedSnap is the result of a background snapshot write.
type savedSnap struct {
	meta core.SnapshotMeta
	err  error
}

func (s *snapshotter) delivered(e core.Entry) {
	s.since++
	s.last = e
}

// restore hands a snapshot (nil: none) to the application.
func (s *snapshotter) restore(n *node, snap *core.Snapshot) error {
	if snap == nil {
		return nil
	}
	m := snap.Meta
	s.last = core.Entry{Zxid: m.Zxid, Timestamp: m.Timestamp, Proposer: m.Proposer, Incarnation: m.Incarnation, Seq: m.Seq}
	s.since = 0
	// The restored snapshot is the one before the next: once that is taken,
	// compact removes what precedes this one. Left at zero, a peer
	// restarted after every snapshot would never compact.
	s.prev = m.Zxid
	c := cookieOf(s.last)
	if err := n.cb.SetState(bytes.NewReader(snap.Data), c); err != nil {
		return fmt.Errorf("zab: SetState at %s: %w", snap.Meta.Zxid, err)
	}
	return nil
}

// maybeTake starts a snapshot once SnapCount deliveries have passed. While
// one is being written no other starts. A failed snapshot is logged and
// tried again SnapCount deliveries later: nothing is lost, the log just
// stays longer.
func (s *snapshotter) maybeTake(n *node) {
	if s.saving || s.since < n.cfg.SnapCount || s.last.Zxid == 0 {
		return
	}
	s.since = 0
	l := s.last
	meta := core.SnapshotMeta{Zxid: l.Zxid, Timestamp: l.Timestamp, Proposer: l.Proposer, Incarnation: l.Incarnation, Seq: l.Seq}
	s.saving = true
	go func() {
		start := time.Now()
		err := saveSnapshot(n, meta)
		if took := time.Since(start); took > time.Duration(n.cfg.SyncLimit)*n.cfg.TickTime {
			n.lg.WithField("took", took).Info("snapshot took longer than syncLimit; callbacks waited meanwhile")
		}
		n.snapDone <- savedSnap{meta: meta, err: err}
	}()
}

// hold queues evs while a snapshot is written; false: run them now.
func (s *snapshotter) hold(evs []core.Event) bool {
	if s.saving {
		s.queued = append(s.queued, evs...)
	}
	return s.saving
}

// done finishes a background write: with the snapshot durable, the log
// before the previous one may go. Then the held callbacks run.
func (s *snapshotter) done(n *node, r savedSnap) error {
	s.saving = false
	if r.err != nil {
		n.lg.WithError(r.err).Error("no snapshot taken")
	} else {
		s.compact(n, r.meta.Zxid)
	}
	q := s.queued
	s.queued = nil
	return n.callbacks(q)
}

func (s *snapshotter) compact(n *node, newest core.Zxid) {
	if s.prev != 0 {
		// Memory and disk keep the log back to the previous snapshot, so a
		// follower up to snapCount behind still gets a DIFF, not a SNAP.
		n.core.Compact(s.prev)
		// Snapshots below prev go with the log files: without the log
		// after them they are no fallback (a restore would have a gap).
		if err := n.store.Compact(s.prev); err != nil {
			n.lg.WithError(err).Warn("old snapshots or log files not removed")
		}
	}
	s.prev = newest
	n.lg.WithField("zxid", newest).Info("snapshot taken")
}

// wait blocks until a snapshot being written is done and runs the held
// callbacks.
func (s *snapshotter) wait(n *node) error {
	if !s.saving {
		return nil
	}
	return s.done(n, <-n.snapDone)
}

// abandon waits for a snapshot being written and drops the held callbacks:
// the peer stops.
func (s *snapshotter) abandon(n *node) {
	if s.saving {
		<-n.snapDone
		s.saving, s.queued = false, nil
	}
}

// saveSnapshot streams GetState to the snapshot store when it can, so a
// large state is not held in memory twice.
func saveSnapshot(n *node, meta core.SnapshotMeta) error {
	type streamer interface {
		SaveFrom(core.SnapshotMeta, func(io.Writer) error) error
	}
	if st, ok := n.store.Snapshots.(streamer); ok {
		return st.SaveFrom(meta, n.cb.GetState)
	}
	var buf bytes.Buffer
	if err := n.cb.GetState(&buf); err != nil {
		return fmt.Errorf("GetState: %w", err)
	}
	return n.store.Snapshots.Save(core.Snapshot{Meta: meta, Data: buf.Bytes()})
}
