package core

import (
	"errors"
	"fmt"
	"slices"
	"sort"
)

// ErrLogSource is wrapped when the durable log does not give back the
// entries whose data the core dropped from memory.
var ErrLogSource = errors.New("zab: durable log disagrees with memory")

// memLog is the part of a peer's history the core keeps in memory: every
// entry after base, the newest snapshot. Entries at or below base live only
// in the snapshot.
//
// Only the newest entries keep their data (tail). Older delivered entries
// keep just their names (old: zxid, timestamp, proposer, incarnation and
// seq, as name): enough to decide DIFF, TRUNC or SNAP for a follower, while
// their data, needed only to bring a lagging follower level, is read back
// from the durable log (Core.entriesAfter). Without that, a log kept back
// to the snapshot before last would hold up to 2·snapCount values in
// memory.
//
// Invariant: the zxids of old then tail strictly increase and all exceed
// base.Zxid, and so do their timestamps beyond base.Timestamp; every entry
// of old is delivered.
type memLog struct {
	base      SnapshotMeta
	old       []name  // delivered entries whose data was dropped
	tail      []Entry // the newest entries, with their data
	tailBytes int     // data bytes held by tail
}

// name is what memory keeps of a delivered entry whose data it dropped.
// It holds no pointer, so the garbage collector never scans old, which
// grows to 2·snapCount names (a pointer per entry made each collection
// walk all of them).
type name struct {
	Zxid                       Zxid
	Timestamp                  int64
	Proposer, Incarnation, Seq uint64
}

func nameOf(e Entry) name {
	return name{Zxid: e.Zxid, Timestamp: e.Timestamp, Proposer: e.Proposer, Incarnation: e.Incarnation, Seq: e.Seq}
}

// entry is the named entry without its data.
func (n name) entry() Entry {
	return Entry{Zxid: n.Zxid, Timestamp: n.Timestamp, Proposer: n.Proposer, Incarnation: n.Incarnation, Seq: n.Seq}
}

// size is the number of entries above base.
func (l *memLog) size() int { return len(l.old) + len(l.tail) }

// at returns entry i of old followed by tail.
func (l *memLog) at(i int) Entry {
	if i < len(l.old) {
		return l.old[i].entry()
	}
	return l.tail[i-len(l.old)]
}

func (l *memLog) lastEntry() (Entry, bool) {
	if n := l.size(); n > 0 {
		return l.at(n - 1), true
	}
	return Entry{}, false
}

func (l *memLog) last() Zxid {
	if e, ok := l.lastEntry(); ok {
		return e.Zxid
	}
	return l.base.Zxid
}

func (l *memLog) lastTimestamp() int64 {
	if e, ok := l.lastEntry(); ok {
		return e.Timestamp
	}
	return l.base.Timestamp
}

// search returns the index (into old then tail) of the first entry with
// zxid >= z.
func (l *memLog) search(z Zxid) int {
	return sort.Search(l.size(), func(i int) bool { return l.at(i).Zxid >= z })
}

// contains reports whether z is a point of this history: base or an entry.
func (l *memLog) contains(z Zxid) bool {
	if z == l.base.Zxid {
		return true
	}
	i := l.search(z)
	return i < l.size() && l.at(i).Zxid == z
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
	return l.at(i - 1).Zxid, true
}

// tailAfter returns the entries above z (a point of the history) when
// memory holds their data; complete is false when some of them are in old.
func (l *memLog) tailAfter(z Zxid) (es []Entry, complete bool) {
	i := l.search(z + 1)
	if i < len(l.old) {
		return nil, false
	}
	return l.tail[i-len(l.old):], true
}

// oldAfter returns the names of the entries in old above z.
func (l *memLog) oldAfter(z Zxid) []name {
	i := l.search(z + 1)
	return l.old[min(i, len(l.old)):]
}

// between returns the entries in (from, to]; from must be at least the
// newest entry of old (the callers pass the delivered point).
func (l *memLog) between(from, to Zxid) []Entry {
	i := max(l.search(from+1)-len(l.old), 0)
	j := max(l.search(to+1)-len(l.old), 0)
	return l.tail[i:j]
}

func (l *memLog) append(es ...Entry) {
	l.tail = append(l.tail, es...)
	l.tailBytes += dataBytes(es)
}

// truncateAfter drops every entry above z, which must not be below old's
// newest (only undelivered entries are ever cut). tail's array is left as
// it is and tail capped, so the next append copies: messages still queued
// elsewhere may share that array.
func (l *memLog) truncateAfter(z Zxid) {
	i := max(l.search(z+1)-len(l.old), 0)
	l.tail = slices.Clip(l.tail[:i])
	l.tailBytes = dataBytes(l.tail)
}

// reset replaces the whole history with a snapshot.
func (l *memLog) reset(base SnapshotMeta) {
	l.base = base
	l.old, l.tail, l.tailBytes = nil, nil, 0
}

// compact forgets entries at or below z, which a durable snapshot now holds.
func (l *memLog) compact(z Zxid) {
	if z <= l.base.Zxid || !l.contains(z) {
		return
	}
	i := l.search(z)
	e := l.at(i)
	l.base = SnapshotMeta{Zxid: z, Timestamp: e.Timestamp, Proposer: e.Proposer, Incarnation: e.Incarnation, Seq: e.Seq}
	if i < len(l.old) {
		l.old = append([]name(nil), l.old[i+1:]...)
		return
	}
	l.tail = append([]Entry(nil), l.tail[i+1-len(l.old):]...)
	l.old = nil
	l.tailBytes = dataBytes(l.tail)
}

// evict moves delivered entries from tail to old, dropping their data,
// once tail holds more than keep·3/2 entries or maxBytes of data, down to
// keep entries and maxBytes/2 (but always keeping its newest entry). Then it
// copies the rest of tail into a new array: the old array, which queued
// messages may still share, goes with them, and with it the dropped data.
func (l *memLog) evict(delivered Zxid, keep, maxBytes int) {
	if len(l.tail) <= keep+keep/2 && l.tailBytes <= maxBytes {
		return
	}
	n, bytes := 0, l.tailBytes
	for n < len(l.tail)-1 && l.tail[n].Zxid <= delivered && (len(l.tail)-n > keep || bytes > maxBytes/2) {
		bytes -= len(l.tail[n].Data)
		n++
	}
	if n == 0 {
		return
	}
	for _, e := range l.tail[:n] {
		l.old = append(l.old, nameOf(e))
	}
	l.tail = append(make([]Entry, 0, len(l.tail)-n+keep), l.tail[n:]...)
	l.tailBytes = bytes
}

// entriesAfter returns the entries above z, a point of the history, with
// their data: those memory dropped are read back from the durable log,
// at most limit of them when limit is positive (then nothing from memory
// follows). ok is false when the log cannot give them (an error, or fewer
// entries than the history names); the caller then sends nothing and the
// follower's next attempt tries again.
func (c *Core) entriesAfter(z Zxid, limit int) (es []Entry, ok bool) {
	if es, ok := c.log.tailAfter(z); ok {
		return es, true
	}
	names := c.log.oldAfter(z)
	cut := limit > 0 && limit < len(names)
	if cut {
		names = names[:limit]
	}
	read, err := c.cfg.Log.EntriesBetween(z, names[len(names)-1].Zxid)
	if err == nil {
		err = sameNames(read, names)
	}
	if err != nil {
		c.logger().WithError(err).Errorf("cannot read the log above %s back from disk to bring a follower level", z)
		return nil, false
	}
	if cut {
		return read[:len(names):len(names)], true
	}
	tail, _ := c.log.tailAfter(names[len(names)-1].Zxid)
	return append(read[:len(names):len(names)], tail...), true
}

// sameNames checks that read begins with the entries names lists.
func sameNames(read []Entry, names []name) error {
	if len(read) < len(names) {
		return fmt.Errorf("%w: the durable log holds %d of the %d entries above %s", ErrLogSource, len(read), len(names), names[0].Zxid)
	}
	for i, n := range names {
		if r := read[i]; nameOf(r) != n {
			return fmt.Errorf("%w: the durable log has %+v where memory has %+v", ErrLogSource, nameOf(r), n)
		}
	}
	return nil
}
