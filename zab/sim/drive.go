package sim

import (
	"fmt"
	"math/rand/v2"
	"time"

	"zablab/zab/core"
	"zablab/zab/trace"
)

// start boots p from its durable state, as a restarted process would.
func (w *world) start(p *peer) {
	restored, snap, err := p.store.Restore()
	if err != nil {
		w.violate("storage", "peer %d cannot restore: %v", p.id, err)
		return
	}
	p.inc++
	p.pausedTo = 0
	p.jobs, p.held = nil, core.Held{}
	p.syncNeed = map[uint64]int{}
	p.own, p.syncOwn = map[uint64]bool{}, map[uint64][]uint64{}
	p.app.list = nil
	w.recordStart(p, restored)
	if snap != nil {
		w.restore(p, snap)
	}
	cfg := core.Config{ID: p.id, Voters: p.voters, Observers: p.obs, InitLimit: initLimit, SyncLimit: syncLimit,
		Incarnation: p.inc, MaxCounter: p.maxCount, Rand: rand.New(rand.NewPCG(w.rng.Uint64(), p.inc)), Snapshots: p.store,
		Log: p.store.Log, KeepEntries: simKeepEntries, KeepBytes: simKeepBytes, MaxBatchBytes: simBatchBytes,
		Logger: w.log, Bugs: w.opts.Bugs.Bugs,
		TickTime: tickLen * time.Millisecond, FinalizeWait: w.finalizeWait(p)}
	c, err := core.New(cfg, restored)
	if err != nil {
		w.violate("storage", "peer %d restored an unusable state: %v", p.id, err)
		return
	}
	p.core = c
	w.tracef("START peer %d (incarnation %d) last=%s", p.id, p.inc, c.Status().Last)
	w.recordState(p)
	w.drain(p)
}

// drain carries out everything p's core asks for, as the runtime does. In
// schedules with even seeds PROPOSE, COMMIT and PING leave before the disk
// write, as in the runtime; with odd seeds every message waits for it (the
// runtime may do that too); with seeds 2 mod 4 broadcast Readys are also
// synced later, as by the runtime's disk goroutine (sim/disk.go). The callbacks may call Propose and Sync while
// the Ready is not yet advanced.
func (w *world) drain(p *peer) {
	early := w.opts.Seed%2 == 0
	for p.core != nil && w.fail == nil && p.core.HasReady() {
		rd := p.core.Ready()
		if w.pipelines() && rd.AppendsOnly() && p.core.Accepting() {
			w.hand(p, rd)
			continue
		}
		w.fsync(p) // anything else waits for the disk
		now, later := rd.Messages, []core.Message(nil)
		switch {
		case w.opts.Bugs.AckBeforeDurable:
		case early:
			now, later = p.split.Split(rd.Messages)
		default:
			now, later = nil, rd.Messages
		}
		w.recordState(p)
		w.sendAll(now)
		if !w.persist(p, &rd) {
			return
		}
		w.recordReady(p, &rd)
		w.sendAll(later)
		w.apply(p, rd.Events)
		if p.core != nil {
			p.core.Advance(rd)
			w.recordState(p)
		}
	}
}

func (w *world) sendAll(ms []core.Message) {
	for i := range ms {
		id, lost, dup := w.net.send(ms[i], w.now)
		w.recordSend(&ms[i], id, lost, dup)
	}
}

// persist writes rd's durable parts. During the fault phase a crash may cut
// it short, leaving a random prefix of the unsynced writes; false means p
// crashed. With the AckBeforeDurable bug the log is not synced here.
func (w *world) persist(p *peer, rd *core.Ready) bool {
	if w.opts.Bugs.AckBeforeDurable {
		// Writes reach the disk only at the next tick's flush, long after
		// the ACKs that vouch for them left (see tickDue).
		if rd.Snapshot != nil {
			_ = p.store.Snapshots.Save(*rd.Snapshot)
			_ = p.mlog.TruncateAfter(rd.Snapshot.Meta.Zxid)
		}
		if rd.Truncate != nil {
			_ = p.mlog.TruncateAfter(*rd.Truncate)
		}
		_ = p.mlog.Append(rd.Entries)
		if rd.Stable != nil {
			_ = p.store.Stable.Store(*rd.Stable)
		}
		return true
	}
	if w.faulty() && !rd.IsEmpty() && w.rng.IntN(200) == 0 {
		w.crashMidWrite(p, rd)
		return false
	}
	if err := p.store.Persist(rd); err != nil {
		w.violate("storage", "peer %d cannot persist: %v", p.id, err)
		return false
	}
	return true
}

// crashMidWrite writes part of rd, then crashes p.
func (w *world) crashMidWrite(p *peer, rd *core.Ready) {
	if rd.Snapshot != nil {
		// storage.Store.Persist makes a snapshot durable (fsync, rename)
		// before it touches the log: a crash before that point leaves the
		// log as it was, never entries above a snapshot that is missing.
		if w.rng.IntN(2) == 0 {
			w.tracef("CRASH peer %d before its snapshot %v was durable", p.id, rd.Snapshot.Meta.Zxid)
			w.crash(p, "crashed before its snapshot was durable")
			return
		}
		_ = p.store.Snapshots.Save(*rd.Snapshot)
		_ = p.mlog.TruncateAfter(rd.Snapshot.Meta.Zxid)
	}
	if rd.Truncate != nil {
		_ = p.mlog.TruncateAfter(*rd.Truncate)
	}
	_ = p.mlog.Append(rd.Entries)
	w.tracef("CRASH peer %d while writing %d entries", p.id, len(rd.Entries))
	w.crash(p, fmt.Sprintf("crashed while writing %d entries: only part of them may survive", len(rd.Entries)))
}

// crash stops p; unsynced log writes survive only in part. Half the time
// the process died and its machine closed its sockets, so the others'
// transports report the lost connection (through the network: late, twice,
// or not at all when a partition cut the link); otherwise the machine went
// silent, as in a power failure, and only syncLimit tells.
func (w *world) crash(p *peer, why string) {
	p.mlog.Crash(w.rng)
	p.core, p.jobs = nil, nil
	if !w.opts.SilentCrashes && w.lost.IntN(2) == 0 {
		w.record(p, trace.Event{Kind: trace.KindCrash, Text: why + "; its process died, and the others see its sockets close"})
		w.lostConnections(p)
		return
	}
	w.record(p, trace.Event{Kind: trace.KindCrash, Text: why + "; its machine went silent"})
}

// lostConnections reports p's closed sockets to every other peer whose
// link from p is not cut, a little later.
func (w *world) lostConnections(p *peer) {
	for _, q := range w.peers {
		if q != p && !w.net.blocked[[2]uint64{p.id, q.id}] {
			m := core.Message{Type: core.MsgPeerLost, From: p.id, To: q.id}
			w.net.inflight = append(w.net.inflight, flight{msg: m, at: w.now + w.lost.Int64N(w.net.maxDelay+1)})
		}
	}
}

// apply runs the application callbacks and checks what they reveal.
func (w *world) apply(p *peer, evs []core.Event) {
	for _, ev := range evs {
		switch ev.Kind {
		case core.EventStatus:
			w.tracef("STATUS peer %d %s leader=%d", p.id, ev.Role, ev.Leader)
			if ev.Role == core.Looking {
				clear(p.own) // they may still be delivered, or never
			}
		case core.EventRestore:
			w.restore(p, ev.Snapshot)
		case core.EventDeliver:
			w.deliver(p, recordOf(ev.Entry))
			w.fromCallback(p)
		case core.EventSync:
			w.syncDone(p, ev)
		}
		if w.fail != nil {
			return
		}
	}
}

func (w *world) restore(p *peer, s *core.Snapshot) {
	list, err := decodeState(s.Data)
	if err != nil {
		w.violate("snapshot", "peer %d: %v", p.id, err)
		return
	}
	w.tracef("RESTORE peer %d at %s (%d records)", p.id, s.Meta.Zxid, len(list))
	w.record(p, trace.Event{Kind: trace.KindRestore, Zxid: trace.Zxid(s.Meta.Zxid), Count: uint64(len(list)),
		Text: fmt.Sprintf("SetState: %d messages", len(list))})
	p.app.list = list
	w.chk.prefix(w, p)
}

func (w *world) deliver(p *peer, r record) {
	if w.opts.Trace != nil {
		w.tracef("DELIVER peer %d %s ts=%d from=%d seq=%d id=%x", p.id, r.Zxid, r.Timestamp, r.Proposer, r.Seq, r.ID)
	}
	w.recordDeliver(p, r)
	w.chk.delivered(w, p, r)
	p.app.list = append(p.app.list, r)
	delete(p.own, r.ID)
}

// finalizeWait varies the election's finalize wait between 1 ms and a
// tick by seed and peer, so peers decide at different moments between
// ticks; it draws nothing from the schedule's random source.
func (w *world) finalizeWait(p *peer) time.Duration {
	if w.opts.FinalizeWait > 0 {
		return w.opts.FinalizeWait
	}
	return time.Duration(1+(w.opts.Seed*7+p.id*3)%tickLen) * time.Millisecond
}

// fromCallback now and then proposes or syncs from inside Deliver, as a
// service does: the call steps the core while its Ready is still being
// carried out, and the drain loop picks up what it produced.
func (w *world) fromCallback(p *peer) {
	if !w.faulty() || p.core == nil {
		return
	}
	switch w.rng.IntN(16) {
	case 0:
		w.proposeNoDrain(p)
	case 1:
		w.proposeNoDrain(p)
		w.syncNoDrain(p)
	}
}

func (w *world) syncDone(p *peer, ev core.Event) {
	need, ok := p.syncNeed[ev.Seq]
	if !ok {
		w.violate("sync", "peer %d got DeliverSync for unknown sync %d", p.id, ev.Seq)
		return
	}
	delete(p.syncNeed, ev.Seq)
	w.tracef("SYNC peer %d seq=%d at %s", p.id, ev.Seq, ev.Zxid)
	if len(p.app.list) < need {
		w.violate("sync", "peer %d: DeliverSync after %d deliveries, but %d were delivered somewhere before Sync",
			p.id, len(p.app.list), need)
		return
	}
	for _, id := range p.syncOwn[ev.Seq] {
		if p.own[id] {
			w.violate("sync", "peer %d: DeliverSync %d before the delivery of its own proposal %x made before the Sync",
				p.id, ev.Seq, id)
			return
		}
	}
	delete(p.syncOwn, ev.Seq)
}
