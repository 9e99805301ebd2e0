package sim

import (
	"sort"

	"zablab/zab/core"
)

// checker holds what the invariants are checked against.
//
// chosen is the one sequence every peer's deliveries must follow: the
// longest delivered sequence seen so far. A delivery at position i either
// matches chosen[i] or, at the end, extends chosen.
type checker struct {
	chosen    []record
	ids       map[uint64]bool
	lastSeq   map[[2]uint64]uint64 // (proposer, incarnation) → newest delivered seq
	leaders   map[uint32]uint64    // epoch → its established leader
	checkedLd map[[2]uint64]bool   // (epoch, leader) whose history was checked
}

func newChecker() checker {
	return checker{ids: map[uint64]bool{}, lastSeq: map[[2]uint64]uint64{},
		leaders: map[uint32]uint64{}, checkedLd: map[[2]uint64]bool{}}
}

// proposalID makes a unique payload naming proposer, incarnation and count.
func proposalID(proposer, inc, n uint64) uint64 {
	return proposer<<48 | (inc&0xffff)<<32 | n&0xffffffff
}

// delivered checks one delivery: agreement, total order, timestamps,
// per-proposer order, no duplicates.
func (k *checker) delivered(w *world, p *peer, r record) {
	i := len(p.app.list)
	if i > 0 && r.Zxid <= p.app.list[i-1].Zxid {
		w.violateBy(w.refs(w.lastOf(p), w.chosenRef(i-1)), "total order", "peer %d delivered %s after %s", p.id, r.Zxid, p.app.list[i-1].Zxid)
		return
	}
	if i < len(k.chosen) {
		if k.chosen[i] != r {
			w.violateBy(w.refs(w.lastOf(p), w.chosenRef(i)), "agreement", "peer %d delivered %s (id %x) at position %d where another peer delivered %s (id %x)",
				p.id, r.Zxid, r.ID, i, k.chosen[i].Zxid, k.chosen[i].ID)
		}
		return
	}
	if i > 0 && r.Timestamp <= k.chosen[i-1].Timestamp {
		w.violateBy(w.refs(w.lastOf(p), w.chosenRef(i-1)), "timestamps", "%s has timestamp %d, not above %d of %s", r.Zxid, r.Timestamp,
			k.chosen[i-1].Timestamp, k.chosen[i-1].Zxid)
		return
	}
	if k.ids[r.ID] {
		w.violateBy(w.refs(w.lastOf(p), w.firstDelivery(r.ID)), "no duplicates", "message %x delivered twice (again as %s)", r.ID, r.Zxid)
		return
	}
	if r.Proposer != r.ID>>48 {
		w.violate("proposer", "message %x says proposer %d", r.ID, r.Proposer)
		return
	}
	if r.Inc&0xffff != (r.ID>>32)&0xffff {
		// (Proposer, Incarnation, Seq) must name one request for ever: an
		// entry that carries another run's incarnation could be matched to
		// that run's request with the same seq.
		w.violate("unique cookie", "message %x proposed in incarnation %d says incarnation %d", r.ID, (r.ID>>32)&0xffff, r.Inc)
		return
	}
	key := [2]uint64{r.Proposer, r.Inc}
	if r.Seq <= k.lastSeq[key] {
		w.violateBy(w.refs(w.lastOf(p)), "per-proposer order", "proposer %d: seq %d delivered after seq %d", r.Proposer, r.Seq, k.lastSeq[key])
		return
	}
	k.lastSeq[key] = r.Seq
	k.ids[r.ID] = true
	k.chosen = append(k.chosen, r)
	w.recordChosen(p, r)
}

// prefix checks that p's whole application state follows chosen.
func (k *checker) prefix(w *world, p *peer) {
	for i, r := range p.app.list {
		if i >= len(k.chosen) {
			w.violateBy(w.refs(w.lastOf(p)), "agreement", "peer %d restored %d records, more than were ever delivered (%d)",
				p.id, len(p.app.list), len(k.chosen))
			return
		}
		if k.chosen[i] != r {
			w.violateBy(w.refs(w.lastOf(p), w.chosenRef(i)), "agreement", "peer %d restored %s at position %d where %s was delivered", p.id, r.Zxid, i, k.chosen[i].Zxid)
			return
		}
	}
}

// checkStep runs the invariants that look at every peer after each step.
func (w *world) checkStep() {
	for _, p := range w.peers {
		if p.core == nil || w.fail != nil {
			continue
		}
		s := p.core.Status()
		if s.Anomalies > 0 {
			w.violateBy(w.refs(w.lastOf(p)), "sync consistency", "peer %d was sent a history that contradicts its own", p.id)
			return
		}
		if s.Established {
			w.chk.established(w, p, s)
		}
	}
}

// established checks one leader per epoch, and that the leader's history
// holds every message of an earlier epoch delivered anywhere. (A leader may
// count a stale but genuine promise late, after a paused process resumes:
// messages of later epochs need not be in its history, and it can never
// activate, because every peer that joined a later epoch refuses it.)
func (k *checker) established(w *world, p *peer, s core.Status) {
	if l, ok := k.leaders[s.Epoch]; ok && l != p.id {
		w.violateBy(w.refs(w.leaderOf(s.Epoch), w.stateOf(p)), "one leader per epoch", "peers %d and %d both established epoch %d", l, p.id, s.Epoch)
		return
	}
	k.leaders[s.Epoch] = p.id
	key := [2]uint64{uint64(s.Epoch), p.id}
	if k.checkedLd[key] {
		return
	}
	k.checkedLd[key] = true
	base, entries := p.core.History()
	for i, r := range k.chosen {
		if r.Zxid <= base.Zxid || r.Zxid.Epoch() >= s.Epoch {
			continue
		}
		j := sort.Search(len(entries), func(j int) bool { return entries[j].Zxid >= r.Zxid })
		if j == len(entries) || recordOf(entries[j]) != r {
			w.violateBy(w.refs(w.stateOf(p), w.chosenRef(i)), "committed kept", "leader %d of epoch %d lacks delivered %s (id %x)", p.id, s.Epoch, r.Zxid, r.ID)
			return
		}
	}
}
