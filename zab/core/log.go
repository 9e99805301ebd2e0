package core

import (
	"slices"
	"sort"
)

// memLog is the part of a peer's history the core keeps in memory: every
// entry after base, the newest snapshot. Entries at or below base live only
// in the snapshot.
//
// Invariant: entries' zxids strictly increase and all exceed base.Zxid;
// their timestamps strictly increase and all exceed base.Timestamp.
type memLog struct {
	base    SnapshotMeta
	entries []Entry
}

func (l *memLog) last() Zxid {
	if n := len(l.entries); n > 0 {
		return l.entries[n-1].Zxid
	}
	return l.base.Zxid
}

func (l *memLog) lastTimestamp() int64 {
	if n := len(l.entries); n > 0 {
		return l.entries[n-1].Timestamp
	}
	return l.base.Timestamp
}

// search returns the index of the first entry with zxid >= z.
func (l *memLog) search(z Zxid) int {
	return sort.Search(len(l.entries), func(i int) bool { return l.entries[i].Zxid >= z })
}

// contains reports whether z is a point of this history: base or an entry.
func (l *memLog) contains(z Zxid) bool {
	if z == l.base.Zxid {
		return true
	}
	i := l.search(z)
	return i < len(l.entries) && l.entries[i].Zxid == z
}

// floor returns the largest point of the history at or below z; ok is false
// when z lies below base.
func (l *memLog) floor(z Zxid) (Zxid, bool) {
	if z < l.base.Zxid {
		return 0, false
	}
	i := l.search(z + 1)
	if i == 0 {
		return l.base.Zxid, true
	}
	return l.entries[i-1].Zxid, true
}

// after returns the entries above z (z must be a point of the history).
func (l *memLog) after(z Zxid) []Entry {
	return l.entries[l.search(z+1):]
}

// between returns the entries in (from, to].
func (l *memLog) between(from, to Zxid) []Entry {
	return l.entries[l.search(from+1):l.search(to+1)]
}

func (l *memLog) append(es ...Entry) { l.entries = append(l.entries, es...) }

// truncateAfter drops every entry above z. The old array is left as it is
// and capped, so the next append copies: messages still queued elsewhere
// may share it.
func (l *memLog) truncateAfter(z Zxid) {
	l.entries = slices.Clip(l.entries[:l.search(z+1)])
}

// reset replaces the whole history with a snapshot.
func (l *memLog) reset(base SnapshotMeta) {
	l.base = base
	l.entries = nil
}

// compact forgets entries at or below z, which a durable snapshot now holds.
func (l *memLog) compact(z Zxid) {
	if z <= l.base.Zxid || !l.contains(z) {
		return
	}
	i := l.search(z)
	e := l.entries[i]
	l.base = SnapshotMeta{Zxid: z, Timestamp: e.Timestamp, Proposer: e.Proposer, Incarnation: e.Incarnation, Seq: e.Seq}
	l.entries = append([]Entry(nil), l.entries[i+1:]...)
}
