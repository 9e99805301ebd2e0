package sim

import (
	"fmt"

	"zablab/zab/core"
	"zablab/zab/trace"
)

// recorder keeps the schedule's events for Options.Events, and what a
// violation needs to name the events that caused it. A nil recorder
// records nothing: a schedule without Events pays one nil check per hook.
type recorder struct {
	out   *[]trace.Event
	n     map[uint64]uint64   // peer → events numbered in its incarnation (0: the world)
	state map[uint64]stateKey // peer → its last recorded state
	// The events a violation may blame.
	last      map[uint64]trace.Ref // peer → its newest event
	stateRef  map[uint64]trace.Ref // peer → its newest state event
	leaderRef map[uint32]trace.Ref // epoch → the state event of the leader that established it
	chosen    []trace.Ref          // the first delivery of each of checker.chosen
	byID      map[uint64]trace.Ref // proposal id → its first delivery
}

// stateKey is what a state event records.
type stateKey struct {
	role        core.Role
	phase       core.Phase
	epoch       uint32
	leader      uint64
	established bool
}

func newRecorder(out *[]trace.Event) *recorder {
	if out == nil {
		return nil
	}
	return &recorder{out: out, n: map[uint64]uint64{}, state: map[uint64]stateKey{}, last: map[uint64]trace.Ref{},
		stateRef: map[uint64]trace.Ref{}, leaderRef: map[uint32]trace.Ref{}, byID: map[uint64]trace.Ref{}}
}

// add records e on peer p (nil: the world) at the current time.
func (w *world) record(p *peer, e trace.Event) trace.Ref {
	r := w.rec
	if r == nil {
		return trace.Ref{}
	}
	if p != nil {
		e.Peer, e.Inc = p.id, p.inc
	}
	r.n[e.Peer]++
	e.N, e.Time = r.n[e.Peer], w.now
	*r.out = append(*r.out, e)
	r.last[e.Peer] = e.Ref()
	return e.Ref()
}

// recordStart begins p's new incarnation, from what its disk holds.
func (w *world) recordStart(p *peer, st core.Restored) {
	if w.rec == nil {
		return
	}
	w.rec.n[p.id] = 0
	delete(w.rec.state, p.id)
	last := st.Snapshot.Zxid
	if n := len(st.Entries); n > 0 {
		last = st.Entries[n-1].Zxid
	}
	w.record(p, trace.Event{Kind: trace.KindStart, Zxid: trace.Zxid(last), Epoch: st.Stable.CurrentEpoch,
		Text: fmt.Sprintf("incarnation %d; its disk holds epochs accepted %d, current %d, log up to %s",
			p.inc, st.Stable.AcceptedEpoch, st.Stable.CurrentEpoch, last)})
}

// recordState records p's role, phase, epoch and leader when they changed.
func (w *world) recordState(p *peer) {
	if w.rec == nil || p.core == nil {
		return
	}
	s := p.core.Status()
	k := stateKey{role: s.Role, phase: s.Phase, epoch: s.Epoch, leader: s.Leader, established: s.Established}
	if old, ok := w.rec.state[p.id]; ok && old == k {
		return
	}
	w.rec.state[p.id] = k
	ref := w.record(p, trace.Event{Kind: trace.KindState, Role: s.Role.String(), Phase: s.Phase.String(),
		Epoch: s.Epoch, Leader: s.Leader, Zxid: trace.Zxid(s.Last)})
	w.rec.stateRef[p.id] = ref
	if _, ok := w.rec.leaderRef[s.Epoch]; s.Established && !ok {
		w.rec.leaderRef[s.Epoch] = ref
	}
}

func (w *world) recordSend(m *core.Message, id uint64, lost string, dup bool) {
	if w.rec == nil {
		return
	}
	p := w.byID(m.From)
	tm := trace.MsgOf(m)
	tm.ID = id
	text := ""
	if dup {
		text = "the network delivers it twice"
	}
	w.record(p, trace.Event{Kind: trace.KindSend, Msg: tm, Text: text})
	if lost != "" {
		w.record(p, trace.Event{Kind: trace.KindDrop, Msg: tm, Text: lost})
	}
}

// recordArrival records f reaching its peer: a receipt, or a loss (why).
func (w *world) recordArrival(f flight, lost string) {
	if w.rec == nil {
		return
	}
	if lost != "" && f.msg.Type == core.MsgPeerLost {
		return // a note about a lost connection that nobody heard: nothing happened
	}
	tm := trace.MsgOf(&f.msg)
	tm.ID = f.id
	if lost != "" {
		w.record(w.byID(f.msg.To), trace.Event{Kind: trace.KindDrop, Msg: tm, Text: lost})
		return
	}
	w.record(w.byID(f.msg.To), trace.Event{Kind: trace.KindRecv, Msg: tm})
}

// recordReady records what p wrote to its log and snapshots.
func (w *world) recordReady(p *peer, rd *core.Ready) {
	if w.rec == nil {
		return
	}
	if rd.Snapshot != nil {
		w.record(p, trace.Event{Kind: trace.KindSnapshot, Zxid: trace.Zxid(rd.Snapshot.Meta.Zxid),
			Text: "installed the leader's snapshot (SNAP)"})
	}
	if rd.Truncate != nil {
		w.record(p, trace.Event{Kind: trace.KindTruncate, Zxid: trace.Zxid(*rd.Truncate)})
	}
	if n := len(rd.Entries); n > 0 {
		w.record(p, trace.Event{Kind: trace.KindAppend, Zxid: trace.Zxid(rd.Entries[0].Zxid),
			Last: trace.Zxid(rd.Entries[n-1].Zxid), Count: uint64(n)})
	}
}

// recordDeliver records a delivery before the checker looks at it, so a
// violation it finds can name it.
func (w *world) recordDeliver(p *peer, r record) {
	if w.rec == nil {
		return
	}
	w.record(p, trace.Event{Kind: trace.KindDeliver, Zxid: trace.Zxid(r.Zxid), Count: r.Seq,
		Text: fmt.Sprintf("proposed by peer %d (seq %d, id %x)", r.Proposer, r.Seq, r.ID)})
}

// recordChosen notes the first delivery of chosen record r.
func (w *world) recordChosen(p *peer, r record) {
	if w.rec != nil {
		w.rec.chosen = append(w.rec.chosen, w.rec.last[p.id])
		w.rec.byID[r.ID] = w.rec.last[p.id]
	}
}

// lastOf is p's newest event, and chosenRef the first delivery of
// chosen[i], for a violation to blame; zero when not recording.
func (w *world) lastOf(p *peer) trace.Ref {
	if w.rec == nil {
		return trace.Ref{}
	}
	return w.rec.last[p.id]
}

// refs lists the events a violation blames.
func (w *world) refs(rs ...trace.Ref) []trace.Ref { return rs }

func (w *world) firstDelivery(id uint64) trace.Ref {
	if w.rec == nil {
		return trace.Ref{}
	}
	return w.rec.byID[id]
}

// stateOf is p's newest state event; leaderOf the state event of the
// leader that established epoch e.
func (w *world) stateOf(p *peer) trace.Ref {
	if w.rec == nil {
		return trace.Ref{}
	}
	return w.rec.stateRef[p.id]
}

func (w *world) leaderOf(e uint32) trace.Ref {
	if w.rec == nil {
		return trace.Ref{}
	}
	return w.rec.leaderRef[e]
}

func (w *world) chosenRef(i int) trace.Ref {
	if w.rec == nil || i < 0 || i >= len(w.rec.chosen) {
		return trace.Ref{}
	}
	return w.rec.chosen[i]
}

func (w *world) recordNet(format string, args ...any) {
	if w.rec != nil {
		w.record(nil, trace.Event{Kind: trace.KindNet, Text: fmt.Sprintf(format, args...)})
	}
}

func (w *world) recordViolation(r *Result, cause []trace.Ref) {
	if w.rec == nil {
		return
	}
	var refs []trace.Ref
	for _, c := range cause {
		if c != (trace.Ref{}) {
			refs = append(refs, c)
		}
	}
	w.record(nil, trace.Event{Kind: trace.KindViolation, Text: r.Invariant + ": " + r.Detail, Cause: refs})
}
