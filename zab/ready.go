package zab

import (
	"bytes"
	"fmt"
	"io"
	"slices"

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
		now, later := n.split(rd.Messages)
		n.send(now)
		if err := n.store.Persist(&rd); err != nil {
			n.failure = fmt.Errorf("%w: %w", ErrStorage, err)
			return
		}
		n.send(later)
		n.inCallback.Store(true)
		err := n.callbacks(rd.Events)
		n.inCallback.Store(false)
		if err != nil {
			n.failure = err
			return
		}
		n.coreMu.Lock()
		n.core.Advance(rd)
		n.coreMu.Unlock()
		n.snaps.maybeTake(n)
	}
}

// early reports whether m may leave before the Ready is persisted: it
// vouches for nothing on this peer's disk (see core.Ready).
func early(m core.Message) bool {
	return m.Type == core.MsgPropose || m.Type == core.MsgCommit || m.Type == core.MsgPing
}

// split divides messages into those that may leave before the disk write
// and those that must wait. Order per destination is kept: once a message
// to a peer must wait, every later message to that peer waits too. The
// returned slices are reused by the next call.
func (n *node) split(ms []core.Message) (now, later []core.Message) {
	n.now, n.later, n.held = n.now[:0], n.later[:0], n.held[:0]
	for _, m := range ms {
		if early(m) && !slices.Contains(n.held, m.To) {
			n.now = append(n.now, m)
			continue
		}
		if !slices.Contains(n.held, m.To) {
			n.held = append(n.held, m.To) // a handful of peers: a slice beats a map
		}
		n.later = append(n.later, m)
	}
	return n.now, n.later
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
			n.cb.DeliverSync(TxnCookie{Zxid: ev.Zxid, Proposer: n.cfg.ID, Seq: ev.Seq})
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
	s.last = core.Entry{Zxid: snap.Meta.Zxid, Timestamp: snap.Meta.Timestamp}
	s.since = 0
	c := TxnCookie{Zxid: snap.Meta.Zxid, Timestamp: snap.Meta.Timestamp}
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
	meta := core.SnapshotMeta{Zxid: s.last.Zxid, Timestamp: s.last.Timestamp}
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
		if err := n.store.Log.RemoveBefore(s.prev); err != nil {
			n.lg.WithError(err).Warn("old log files not removed")
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
