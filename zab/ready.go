package zab

import (
	"fmt"
	"time"

	"zablab/zab/core"
)

// process carries out the core's Ready values in the contract's order:
// messages that vouch for nothing leave first, then one persist with one
// fsync, then the rest of the messages, then the callbacks. A broadcast
// Ready (it only appends entries, in phase Broadcast) goes to the disk
// writer, and the loop goes on while it syncs (zab/disk.go); any other
// Ready waits for the writer to finish and is carried out here.
func (n *node) process() {
	for n.failure == nil && n.core.HasReady() {
		select {
		case r := <-n.disk.done: // before more work: a failed disk stops the peer now
			if n.finished(r); n.failure != nil {
				return
			}
		default:
		}
		rd := n.core.Ready()
		n.taken = mono() // the commits it delivers were decided before this
		n.trace.changed(n.core)
		if rd.AppendsOnly() && n.core.Accepting() {
			n.pipeline(rd)
		} else {
			n.drain()
			n.carryOut(rd)
		}
		if n.failure != nil {
			return
		}
		n.meter.observe(n.core, false)
		n.publish() // a leader may have become active
		n.snaps.maybeTake(n)
	}
}

// carryOut persists rd and sends and delivers around it, waiting for the
// disk. In broadcast (a Ready that only appends entries) the callbacks run
// before the fsync: what they deliver was committed by a quorum's durable
// ACKs before this batch, so it need not wait for the new entries.
func (n *node) carryOut(rd core.Ready) {
	if n.failure != nil {
		return
	}
	if rd.Snapshot != nil {
		// An installed snapshot removes older ones: our own still being
		// written must land first, or it would survive as a fallback.
		if err := n.snaps.wait(n); err != nil {
			n.failure = err
			return
		}
	}
	now, later := n.split.Split(rd.Messages)
	n.send(now)
	early := rd.AppendsOnly()
	if early && !n.deliverOrStop(rd.Events) {
		return
	}
	t0 := mono()
	if err := n.store.Persist(&rd); err != nil {
		n.failure = fmt.Errorf("%w: %w", ErrStorage, err)
		return
	}
	t1 := mono()
	n.meter.persisted(len(rd.Entries), time.Duration(t1-t0))
	n.stages.ordered(rd.Entries, n.cfg.ID, n.inc, t0)
	n.stages.fsynced(rd.Entries, n.cfg.ID, n.inc, t1)
	n.trace.persisted(&rd)
	n.trace.events(&rd)
	n.send(later)
	if !early && !n.deliverOrStop(rd.Events) {
		return
	}
	n.core.Advance(rd)
	n.trace.changed(n.core)
}

func (n *node) send(ms []core.Message) {
	if n.tr == nil {
		return
	}
	for i := range ms {
		n.trace.send(&ms[i])
		n.tr.Send(ms[i])
	}
}

// deliverOrStop delivers evs; false when that failed and the peer stops.
func (n *node) deliverOrStop(evs []core.Event) bool {
	if err := n.deliver(evs); err != nil {
		n.failure = err
		return false
	}
	return true
}

// deliver runs the callbacks, or holds them back while a snapshot is
// being written.
func (n *node) deliver(evs []core.Event) error {
	if n.snaps.hold(evs) {
		return nil
	}
	return n.callbacks(evs)
}

// callbacks calls the application, in order.
func (n *node) callbacks(evs []core.Event) error {
	leading := n.core.Status().Role == core.Leading
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
			now := time.Now()
			n.meter.delivered(leading, ev.Entry.Timestamp, now)
			if ev.Entry.Proposer == n.cfg.ID && ev.Entry.Incarnation == n.inc {
				n.stages.delivering(&ev.Entry, leading, n.taken, int64(now.Sub(monoBase)))
			}
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
