package zab

import (
	"bytes"
	"fmt"
	"io"

	"zablab/zab/core"
)

// process carries out the core's Ready values in the contract's order:
// messages that vouch for nothing leave first, then one persist with one
// fsync, then the rest of the messages, then the callbacks.
func (n *node) process() {
	for n.failure == nil {
		n.coreMu.Lock()
		if !n.core.HasReady() {
			n.coreMu.Unlock()
			return
		}
		rd := n.core.Ready()
		n.coreMu.Unlock()
		now, later := n.split.Split(rd.Messages)
		n.send(now)
		if err := n.store.Persist(&rd); err != nil {
			n.failure = fmt.Errorf("%w: %w", ErrStorage, err)
			return
		}
		n.send(later)
		if err := n.callbacks(rd.Events); err != nil {
			n.failure = err
			return
		}
		n.coreMu.Lock()
		n.core.Advance(rd)
		n.coreMu.Unlock()
		n.snaps.maybeTake(n)
	}
}

func (n *node) send(ms []core.Message) {
	if n.tr == nil {
		return
	}
	for _, m := range ms {
		n.tr.Send(m)
	}
}

// callbacks calls the application, in order.
func (n *node) callbacks(evs []core.Event) error {
	for _, ev := range evs {
		switch ev.Kind {
		case core.EventStatus:
			n.lg.WithField("leader", ev.Leader).Debugf("status %s", ev.Role) // the core logged the change
			n.cb.Status(ev.Role, n.leaderAddr(ev))
		case core.EventRestore:
			if err := n.snaps.restore(n, ev.Snapshot); err != nil {
				return err
			}
		case core.EventDeliver:
			n.snaps.delivered(ev.Entry)
			n.cb.Deliver(cookieOf(ev.Entry), ev.Entry.Data)
		case core.EventSync:
			n.cb.DeliverSync(TxnCookie{Zxid: ev.Zxid, Proposer: n.cfg.ID, Incarnation: n.inc, Seq: ev.Seq, Sync: true})
		}
	}
	return nil
}

func (n *node) leaderAddr(ev core.Event) string {
	if ev.Role == core.Looking {
		return ""
	}
	if a := n.cfg.addr(ev.Leader); a != "" {
		return a
	}
	return "local"
}

// snapshotter takes a snapshot every SnapCount deliveries and installs the
// ones that arrive.
type snapshotter struct {
	since int        // deliveries since the newest snapshot
	last  core.Entry // the newest delivery
	prev  core.Zxid  // the snapshot before the newest: log files up to it may go
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
	c := cookieOf(s.last)
	if err := n.cb.SetState(bytes.NewReader(snap.Data), c); err != nil {
		return fmt.Errorf("zab: SetState at %s: %w", snap.Meta.Zxid, err)
	}
	return nil
}

// maybeTake saves the application's state between two deliveries once
// SnapCount deliveries have passed, then lets the log forget what it holds.
// A failed snapshot is logged and tried again SnapCount deliveries later:
// nothing is lost, the log just stays longer.
func (s *snapshotter) maybeTake(n *node) {
	if s.since < n.cfg.SnapCount || s.last.Zxid == 0 {
		return
	}
	s.since = 0
	l := s.last
	meta := core.SnapshotMeta{Zxid: l.Zxid, Timestamp: l.Timestamp, Proposer: l.Proposer, Incarnation: l.Incarnation, Seq: l.Seq}
	if err := saveSnapshot(n, meta); err != nil {
		n.lg.WithError(err).Error("no snapshot taken")
		return
	}
	if s.prev != 0 {
		// Memory and disk keep the log back to the previous snapshot, so a
		// follower up to snapCount behind still gets a DIFF, not a SNAP.
		n.coreMu.Lock()
		n.core.Compact(s.prev)
		n.coreMu.Unlock()
		// Snapshots below prev go with the log files: without the log
		// after them they are no fallback (a restore would have a gap).
		if err := n.store.Compact(s.prev); err != nil {
			n.lg.WithError(err).Warn("old snapshots or log files not removed")
		}
	}
	s.prev = meta.Zxid
	n.lg.WithField("zxid", meta.Zxid).Info("snapshot taken")
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
