package zab

import (
	"sync"
	"sync/atomic"
	"time"

	"zablab/zab/core"
)

// Where a write's time goes: the runtime stamps each of this peer's own
// proposals as it passes the stages it alone sees (Propose called, ordered
// and sent, its own fsync, commit known, Deliver called), and publishes the
// stamps of the delivery in progress on a per-peer board. The server, whose
// reply function the application calls from inside Deliver, reads them there
// by zxid and adds its own stages (read before, reply written after). The
// core stays clock-free: every stamp is taken here, mostly at points that
// took the time already.

// WriteStages are the times one proposal of this peer passed the runtime's
// stages. Ordered is when the batch holding its log entry was sent and
// handed to the disk (on a follower: the leader's proposal came back);
// Fsynced when this peer's fsync of that batch ended, or when the commit
// was known if a quorum of followers acknowledged it first; Committed when the
// runtime took the batch that delivers it (a quorum had acknowledged);
// Delivered when Deliver was called. The times carry the monotonic clock.
type WriteStages struct {
	Zxid    Zxid
	Leading bool // the peer led when it delivered

	Proposed, Ordered, Fsynced, Committed, Delivered time.Time
}

// stageRing bounds the proposals stamped at once: a proposal whose slot a
// later one took (more than stageRing in flight) is not measured. A ring,
// not a map: no allocation per request, and lost proposals (LOOKING) need
// no cleanup.
const stageRing = 4096

// stamp is one proposal's stages in monotonic nanoseconds since monoBase;
// seq 0 marks a free slot.
type stamp struct {
	seq uint64

	proposed, ordered, fsynced, committed, delivered int64
}

// monoBase anchors the stamps: int64 offsets from it are the monotonic
// clock, cheap to store and turned back into time.Time when published.
var monoBase = time.Now()

func mono() int64 { return int64(time.Since(monoBase)) }

func monoTime(ns int64) time.Time { return monoBase.Add(time.Duration(ns)) }

// stager is a node's stamps; only the peer's goroutine touches ring.
type stager struct {
	ring  [stageRing]stamp
	board *StageBoard
}

func newStager(id uint64) *stager { return &stager{board: StageBoardOf(id)} }

// taken records that run handed proposal seq, made at proposed, to the core.
func (s *stager) taken(seq uint64, proposed int64) {
	s.ring[seq%stageRing] = stamp{seq: seq, proposed: proposed}
}

// ordered stamps this peer's own entries of a batch sent and handed to
// the disk at t.
func (s *stager) ordered(es []core.Entry, id, inc uint64, t int64) {
	s.each(es, id, inc, func(st *stamp) {
		if st.ordered == 0 {
			st.ordered = t
		}
	})
}

// fsynced stamps this peer's own entries of a batch on disk at t.
func (s *stager) fsynced(es []core.Entry, id, inc uint64, t int64) {
	s.each(es, id, inc, func(st *stamp) {
		if st.fsynced == 0 {
			st.fsynced = t
		}
	})
}

func (s *stager) each(es []core.Entry, id, inc uint64, f func(*stamp)) {
	for i := range es {
		e := &es[i]
		if e.Proposer != id || e.Incarnation != inc {
			continue
		}
		if st := &s.ring[e.Seq%stageRing]; st.seq == e.Seq {
			f(st)
		}
	}
}

// delivering publishes the stamps of e, this peer's own proposal, just
// before its Deliver; committed is when its batch was taken.
func (s *stager) delivering(e *core.Entry, leading bool, committed, delivered int64) {
	st := &s.ring[e.Seq%stageRing]
	if st.seq != e.Seq || st.ordered == 0 {
		return // made before a restart, or its slot was reused
	}
	if st.fsynced == 0 {
		// A quorum of followers committed it before this peer's own fsync
		// ended (the disk writer still has it): the fsync stage ends there.
		st.fsynced = max(committed, st.ordered)
	}
	st.committed, st.delivered = max(committed, st.fsynced), delivered
	s.board.publish(e.Zxid, leading, st)
	st.seq = 0
}

// StageBoard holds the stages of the delivery a peer is making, for the
// application's reply path to read (a seqlock of atomics: the peer's
// goroutine writes, any goroutine reads, neither waits).
type StageBoard struct {
	ver     atomic.Uint64 // odd while being written
	zxid    atomic.Uint64
	leading atomic.Bool
	t       [5]atomic.Int64
}

var boards sync.Map // myid -> *StageBoard

// StageBoardOf returns the board of the peer with id myid in this
// process; the peer and the server find the same one whichever starts
// first.
func StageBoardOf(myid uint64) *StageBoard {
	if b, ok := boards.Load(myid); ok {
		return b.(*StageBoard)
	}
	b, _ := boards.LoadOrStore(myid, new(StageBoard))
	return b.(*StageBoard)
}

func (b *StageBoard) publish(z Zxid, leading bool, st *stamp) {
	b.ver.Add(1)
	b.zxid.Store(uint64(z))
	b.leading.Store(leading)
	for i, v := range [5]int64{st.proposed, st.ordered, st.fsynced, st.committed, st.delivered} {
		b.t[i].Store(v)
	}
	b.ver.Add(1)
}

// Lookup returns the stages of this peer's own proposal with zxid z if it
// is the one being delivered now (as it is while the application answers
// its request from inside Deliver).
func (b *StageBoard) Lookup(z Zxid) (WriteStages, bool) {
	if b == nil || z == 0 {
		return WriteStages{}, false
	}
	v := b.ver.Load()
	if v%2 == 1 || Zxid(b.zxid.Load()) != z {
		return WriteStages{}, false
	}
	var t [5]int64
	for i := range t {
		t[i] = b.t[i].Load()
	}
	leading := b.leading.Load()
	if b.ver.Load() != v {
		return WriteStages{}, false // rewritten meanwhile: no longer the delivery in progress
	}
	return WriteStages{Zxid: z, Leading: leading, Proposed: monoTime(t[0]), Ordered: monoTime(t[1]),
		Fsynced: monoTime(t[2]), Committed: monoTime(t[3]), Delivered: monoTime(t[4])}, true
}
