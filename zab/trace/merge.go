package trace

import (
	"container/heap"
	"fmt"
	"sort"

	"zablab/zab/core"
)

// MergeStats says what Merge found.
type MergeStats struct {
	Events  int // events in the merged trace, inferred crashes included
	Sends   int
	Matched int // receipts matched to their send
	Orphans int // receipts with no send in the traces
	// PeerLost counts the notes that a connection to a peer failed: the
	// transport's own, traced as receipts, but never sent by anyone.
	PeerLost int
	Lost     int // sends never received in the traces: lost with a connection or a crash
	Crashes  int // incarnations that ended without a stop record: killed
	Broken   int // matches given up because they contradicted the others (should be 0)
}

func (s MergeStats) String() string {
	return fmt.Sprintf("%d events, %d messages sent, %d received (%d lost), %d receipts without a send, "+
		"%d lost connections noticed, %d kills inferred",
		s.Events, s.Sends, s.Matched, s.Lost, s.Orphans, s.PeerLost, s.Crashes)
}

// Merge orders the events of several peers' trace files (each in the
// order its file holds them) into one sequence in which every event comes
// after the events before it on its peer and every receipt after its
// send: the happened-before order of the messages, never the peers'
// clocks. Time only breaks ties between events that the messages leave
// unordered, so that concurrent events come out roughly as they happened.
//
// A receipt is matched to its send by the link (From, To), the message's
// fingerprint (Hash) and FIFO order: the peers' transport keeps each
// link's order, so the k-th receipt on a link is the first not yet
// matched send on that link with the same fingerprint. Merge gives every
// send an ID and its receipt the same ID, sets every event's Lamport
// clock, and adds a KindCrash event where an incarnation ended without a
// stop record before the next one started (a kill -9).
func Merge(files [][]Event) ([]Event, MergeStats) {
	m := newMerger(files)
	m.match()
	out := m.order()
	return out, m.stats
}

// peerLost is the type of a lost-connection note (core.MsgPeerLost).
var peerLost = core.MsgPeerLost.String()

type merger struct {
	ev    []Event // every event, copied, files one after the other
	file  []int   // ev[k]'s file
	prev  []int   // the event before ev[k] in its file; -1 for the first
	next  []int   // the event after ev[k] in its file; -1 for the last
	send  []int   // for a matched receipt, its send; else -1
	recvs [][]int // for a send, its matched receipts
	stats MergeStats
}

func newMerger(files [][]Event) *merger {
	m := &merger{}
	for f, evs := range files {
		first := len(m.ev)
		for i := range evs {
			e := evs[i]
			if e.Msg != nil {
				c := *e.Msg
				e.Msg = &c
			}
			if i > 0 && e.Inc != evs[i-1].Inc && !ended(evs[i-1].Kind) {
				m.add(f, first, crashAfter(&evs[i-1]))
				m.stats.Crashes++
			}
			m.add(f, first, e)
		}
	}
	m.send = make([]int, len(m.ev))
	m.recvs = make([][]int, len(m.ev))
	for k := range m.send {
		m.send[k] = -1
	}
	return m
}

func ended(k Kind) bool { return k == KindStop || k == KindCrash || k == KindFull }

// crashAfter is the kill Merge infers after e, the last event of an
// incarnation that left no stop record.
func crashAfter(e *Event) Event {
	return Event{Peer: e.Peer, Inc: e.Inc, N: e.N + 1, Time: e.Time, Kind: KindCrash,
		Text: "killed: the trace ends without a stop record, and the peer started again"}
}

func (m *merger) add(f, first int, e Event) {
	k := len(m.ev)
	m.ev = append(m.ev, e)
	m.file = append(m.file, f)
	m.next = append(m.next, -1)
	if k > first {
		m.prev = append(m.prev, k-1)
		m.next[k-1] = k
	} else {
		m.prev = append(m.prev, -1)
	}
}

// match pairs receipts with sends, link by link, and numbers the sends.
func (m *merger) match() {
	type link struct{ from, to uint64 }
	sends := map[link][]int{}
	for k := range m.ev {
		if e := &m.ev[k]; e.Kind == KindSend && e.Msg != nil {
			m.stats.Sends++
			e.Msg.ID = uint64(m.stats.Sends)
			l := link{e.Msg.From, e.Msg.To}
			sends[l] = append(sends[l], k)
		}
	}
	// Per link: the positions of each fingerprint among its sends.
	byHash := map[link]map[uint64][]int{}
	for l, ks := range sends {
		idx := map[uint64][]int{}
		for pos, k := range ks {
			idx[m.ev[k].Msg.Hash] = append(idx[m.ev[k].Msg.Hash], pos)
		}
		byHash[l] = idx
	}
	next := map[link]int{} // the first send position a receipt may match
	for k := range m.ev {
		e := &m.ev[k]
		if e.Kind != KindRecv || e.Msg == nil {
			continue
		}
		e.Msg.ID = 0
		if e.Msg.Type == peerLost {
			m.stats.PeerLost++
			continue
		}
		l := link{e.Msg.From, e.Msg.To}
		ps := byHash[l][e.Msg.Hash]
		i := sort.SearchInts(ps, next[l])
		if i == len(ps) {
			m.stats.Orphans++
			continue
		}
		s := sends[l][ps[i]]
		next[l] = ps[i] + 1
		m.pair(s, k)
	}
	for k := range m.ev {
		if m.ev[k].Kind == KindSend && len(m.recvs[k]) == 0 {
			m.stats.Lost++
		}
	}
}

func (m *merger) pair(s, r int) {
	m.send[r] = s
	m.recvs[s] = append(m.recvs[s], r)
	m.ev[r].Msg.ID = m.ev[s].Msg.ID
	m.stats.Matched++
}

// order emits the events in a topological order of the happened-before
// graph, the earliest Time first among those ready.
func (m *merger) order() []Event {
	wait := make([]int, len(m.ev)) // predecessors not yet emitted
	for k := range m.ev {
		if m.prev[k] >= 0 {
			wait[k]++
		}
		if m.send[k] >= 0 {
			wait[k]++
		}
	}
	ready := &readyHeap{m: m}
	for k := range m.ev {
		if wait[k] == 0 {
			heap.Push(ready, k)
		}
	}
	done := make([]bool, len(m.ev))
	lamport := make([]uint64, len(m.ev))
	out := make([]Event, 0, len(m.ev))
	release := func(k int) {
		if wait[k]--; wait[k] == 0 {
			heap.Push(ready, k)
		}
	}
	for len(out) < len(m.ev) {
		if ready.Len() == 0 {
			release(m.unblock(done))
			continue
		}
		k := heap.Pop(ready).(int)
		done[k] = true
		e := m.ev[k]
		if p := m.prev[k]; p >= 0 {
			e.Lamport = lamport[p]
		}
		if s := m.send[k]; s >= 0 {
			e.Lamport = max(e.Lamport, lamport[s])
		}
		e.Lamport++
		lamport[k] = e.Lamport
		out = append(out, e)
		if n := m.next[k]; n >= 0 {
			release(n)
		}
		for _, r := range m.recvs[k] {
			release(r)
		}
	}
	m.stats.Events = len(out)
	return out
}

// unblock gives up one match when every waiting event waits for another
// (the matches contradict each other, as a receipt matched to a send
// that was in truth a later copy of the message could): the earliest
// receipt at the head of its file that waits for a send becomes an
// orphan. It returns that receipt, whose send no longer holds it.
func (m *merger) unblock(done []bool) int {
	best := -1
	for k := range m.ev {
		if done[k] || m.send[k] < 0 || done[m.send[k]] || (m.prev[k] >= 0 && !done[m.prev[k]]) {
			continue
		}
		if best < 0 || m.ev[k].Time < m.ev[best].Time {
			best = k
		}
	}
	if best < 0 {
		panic("trace: merge found no receipt to unblock") // every chain head waits for a send: impossible
	}
	s := m.send[best]
	for i, r := range m.recvs[s] {
		if r == best {
			m.recvs[s] = append(m.recvs[s][:i], m.recvs[s][i+1:]...)
			break
		}
	}
	m.send[best] = -1
	m.ev[best].Msg.ID = 0
	m.stats.Broken++
	m.stats.Matched--
	m.stats.Orphans++
	if len(m.recvs[s]) == 0 {
		m.stats.Lost++
	}
	return best
}

// readyHeap orders ready events by Time, then file, then position.
type readyHeap struct {
	m  *merger
	ks []int
}

func (h *readyHeap) Len() int { return len(h.ks) }
func (h *readyHeap) Less(i, j int) bool {
	a, b := h.ks[i], h.ks[j]
	if ta, tb := h.m.ev[a].Time, h.m.ev[b].Time; ta != tb {
		return ta < tb
	}
	if h.m.file[a] != h.m.file[b] {
		return h.m.file[a] < h.m.file[b]
	}
	return a < b
}
func (h *readyHeap) Swap(i, j int) { h.ks[i], h.ks[j] = h.ks[j], h.ks[i] }
func (h *readyHeap) Push(x any)    { h.ks = append(h.ks, x.(int)) }
func (h *readyHeap) Pop() any {
	k := h.ks[len(h.ks)-1]
	h.ks = h.ks[:len(h.ks)-1]
	return k
}
