package sim

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"zablab/zab/core"
	"zablab/zab/trace"
)

// faulty reports whether the schedule is still in its fault phase.
func (w *world) faulty() bool { return w.step <= w.opts.Steps }

// faultStep takes one random step of the fault phase.
func (w *world) faultStep() {
	r := w.rng.IntN(100)
	switch {
	case r < 45:
		w.deliverOne()
	case r < 70:
		w.advance()
	case r < 80:
		w.propose(w.randomPeer(true))
	case r < 83:
		w.sync(w.randomPeer(true))
	case r < 86:
		w.crashSome()
	case r < 91:
		if p := w.randomPeer(false); p != nil {
			w.start(p)
		}
	case r < 93:
		w.partition()
	case r < 94:
		w.pause(w.randomPeer(true))
	case r < 96:
		w.tracef("HEAL")
		w.net.heal()
	default:
		w.snapshot(w.randomPeer(true))
	}
}

// crashSome crashes one peer, or now and then every peer at once, as a
// power failure would: then every unsynced write is at risk together.
func (w *world) crashSome() {
	if w.rng.IntN(8) == 0 {
		w.tracef("POWER FAILURE")
		w.recordNet("POWER FAILURE: every peer crashes at once")
		for _, p := range w.peers {
			if p.core != nil {
				p.mlog.Crash(w.rng) // no socket closes in a power failure
				p.core, p.jobs = nil, nil
				w.record(p, trace.Event{Kind: trace.KindCrash, Text: "power failure"})
			}
		}
		return
	}
	if p := w.randomPeer(true); p != nil {
		w.tracef("CRASH peer %d", p.id)
		w.crash(p, "crashed")
	}
}

// randomPeer picks a peer that is up (or down).
func (w *world) randomPeer(up bool) *peer {
	var ps []*peer
	for _, p := range w.peers {
		if (p.core != nil) == up {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return nil
	}
	return ps[w.rng.IntN(len(ps))]
}

// deliverOne hands one due message to its peer, or lets time pass.
func (w *world) deliverOne() {
	f, ok, cut := w.net.take(w.now)
	if cut {
		w.recordArrival(f, "link cut while it was in flight")
	}
	if !ok {
		w.advance()
		return
	}
	w.stepPeer(f)
}

// stepPeer hands f's message to its peer; a paused peer finds it waiting
// on resume.
func (w *world) stepPeer(f flight) {
	m := f.msg
	p := w.byID(m.To)
	if p == nil {
		return
	}
	if p.core == nil {
		w.recordArrival(f, "the peer is down")
		return
	}
	if w.now < p.pausedTo {
		f.at = p.pausedTo
		w.net.inflight = append(w.net.inflight, f)
		return
	}
	w.recordArrival(f, "")
	p.core.Step(m, w.clock(p))
	w.recordState(p)
	w.drain(p)
}

// pause stops p for a while, long enough for the others to move on; when it
// resumes it handles what queued up before its timers catch up.
func (w *world) pause(p *peer) {
	if p == nil {
		return
	}
	p.pausedTo = w.now + int64(syncLimit+2+w.rng.IntN(3*syncLimit))*tickLen
	p.nextTick = p.pausedTo + 1
	w.tracef("PAUSE peer %d until t=%d", p.id, p.pausedTo)
	w.record(p, trace.Event{Kind: trace.KindPause, Text: fmt.Sprintf("stopped until t=%d", p.pausedTo)})
}

// advance moves time forward; peers whose tick is due tick.
func (w *world) advance() {
	w.now += 1 + w.rng.Int64N(tickLen)
	w.tickDue()
}

func (w *world) tickDue() {
	for _, p := range w.peers {
		for p.core != nil && p.nextTick <= w.now {
			p.nextTick += tickLen
			if w.opts.Bugs.AckBeforeDurable {
				_ = p.mlog.Sync() // the buggy peer's periodic flush
			}
			if len(p.jobs) > 0 && w.rng.IntN(2) == 0 { // no draw otherwise: other schedules stay as they were
				w.fsync(p) // a slow disk: an fsync takes a tick or two
			}
			p.core.Tick(w.clock(p))
			w.drain(p)
		}
		if p.core == nil && p.nextTick <= w.now {
			p.nextTick = w.now + tickLen
		}
		w.wakeDue(p)
	}
}

// wakeDue wakes p's core when its clock reached the deadline the core asked
// for (an election's finalize wait), as the runtime's timer does.
func (w *world) wakeDue(p *peer) {
	if p.core == nil || w.now < p.pausedTo {
		return
	}
	if at, ok := p.core.NextDeadline(); ok && at <= w.clock(p) {
		p.core.Wake(w.clock(p))
		w.recordState(p)
		w.drain(p)
	}
}

// propose asks p's core to propose a fresh message; it returns its id.
func (w *world) propose(p *peer) (uint64, bool) {
	id, ok := w.proposeNoDrain(p)
	if ok {
		w.drain(p)
	}
	return id, ok
}

// proposeNoDrain proposes without carrying out the core's output, as a
// call from inside a callback does.
func (w *world) proposeNoDrain(p *peer) (uint64, bool) {
	if p == nil || w.now < p.pausedTo {
		return 0, false
	}
	w.nextN++
	id := proposalID(p.id, p.inc, w.nextN)
	seq, err := p.core.Propose(binary.BigEndian.AppendUint64(nil, id), w.clock(p))
	if err != nil {
		if !errors.Is(err, core.ErrNoLeader) {
			w.violate("api", "peer %d: Propose: %v", p.id, err)
		}
		return 0, false
	}
	w.tracef("PROPOSE peer %d seq=%d id=%x", p.id, seq, id)
	w.record(p, trace.Event{Kind: trace.KindPropose, Count: seq, Text: fmt.Sprintf("the application proposes id %x", id)})
	p.own[id] = true
	return id, true
}

func (w *world) sync(p *peer) {
	if w.syncNoDrain(p) {
		w.drain(p)
	}
}

func (w *world) syncNoDrain(p *peer) bool {
	if p == nil || w.now < p.pausedTo {
		return false
	}
	seq, err := p.core.Sync()
	if err != nil {
		return false
	}
	p.syncNeed[seq] = len(w.chk.chosen)
	for id := range p.own {
		p.syncOwn[seq] = append(p.syncOwn[seq], id)
	}
	w.tracef("SYNC? peer %d seq=%d need=%d own=%d", p.id, seq, len(w.chk.chosen), len(p.own))
	return true
}

// partition cuts one random link one way, or splits the ensemble in two.
func (w *world) partition() {
	n := uint64(len(w.peers))
	if w.rng.IntN(2) == 0 {
		a, b := 1+w.rng.Uint64N(n), 1+w.rng.Uint64N(n)
		w.net.blocked[[2]uint64{a, b}] = true
		w.tracef("CUT %d→%d", a, b)
		w.recordNet("CUT %d→%d: the link from peer %d to peer %d loses everything", a, b, a, b)
		return
	}
	side := make([]bool, n+1)
	for i := range side {
		side[i] = w.rng.IntN(2) == 0
	}
	for a := uint64(1); a <= n; a++ {
		for b := uint64(1); b <= n; b++ {
			if side[a] != side[b] {
				w.net.blocked[[2]uint64{a, b}] = true
			}
		}
	}
	w.tracef("SPLIT %v", side[1:])
	w.recordNet("SPLIT %s", splitText(side[1:]))
}

// snapshot has p's application save its state at the delivered point.
func (w *world) snapshot(p *peer) {
	if p == nil || len(p.app.list) == 0 {
		return
	}
	// As the runtime: a snapshot only on a log synced up to it. What the
	// fsync lets the core deliver is applied first (drain), which may hand
	// new entries to the disk again.
	for i := 0; i < 8 && p.core != nil && len(p.jobs) > 0; i++ {
		w.fsync(p)
		w.drain(p)
	}
	if p.core == nil || len(p.jobs) > 0 || len(p.app.list) == 0 {
		return
	}
	last := p.app.list[len(p.app.list)-1]
	if s := p.core.Status(); s.Delivered != last.Zxid {
		w.violate("delivery", "peer %d: core delivered %s, application last got %s", p.id, s.Delivered, last.Zxid)
		return
	}
	snap := core.Snapshot{Meta: core.SnapshotMeta{Zxid: last.Zxid, Timestamp: last.Timestamp,
		Proposer: last.Proposer, Incarnation: last.Inc, Seq: last.Seq}, Data: p.app.getState()}
	if err := p.store.Snapshots.Save(snap); err != nil {
		w.violate("storage", "peer %d: %v", p.id, err)
		return
	}
	p.core.Compact(last.Zxid)
	w.tracef("SNAPSHOT peer %d at %s", p.id, last.Zxid)
	w.record(p, trace.Event{Kind: trace.KindSnapshot, Zxid: trace.Zxid(last.Zxid), Text: "the application saved its state"})
}

// splitText names the two sides of a split: "{1 3} | {2}".
func splitText(side []bool) string {
	var a, b []string
	for i, s := range side {
		if s {
			a = append(a, fmt.Sprint(i+1))
		} else {
			b = append(b, fmt.Sprint(i+1))
		}
	}
	return "{" + strings.Join(a, " ") + "} | {" + strings.Join(b, " ") + "}: no link between the sides"
}
