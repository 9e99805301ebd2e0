package storage

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"zablab/zab/core"
)

// MemLog is the in-memory twin of the file log. Unsynced operations sit in a
// buffer; Crash keeps a random prefix of them, as a real disk may.
type MemLog struct {
	mu      sync.Mutex
	durable []core.Entry
	pending []logOp
}

type logOp struct {
	truncate bool
	zxid     core.Zxid
	entry    core.Entry
}

func (l *MemLog) Append(es []core.Entry) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range es {
		l.pending = append(l.pending, logOp{entry: e})
	}
	return nil
}

func (l *MemLog) TruncateAfter(z core.Zxid) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = append(l.pending, logOp{truncate: true, zxid: z})
	return nil
}

func (l *MemLog) Sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.apply(len(l.pending))
	return nil
}

func (l *MemLog) apply(n int) {
	for _, op := range l.pending[:n] {
		if op.truncate {
			i, _ := slices.BinarySearchFunc(l.durable, op.zxid+1, func(e core.Entry, z core.Zxid) int {
				return cmpZxid(e.Zxid, z)
			})
			l.durable = slices.Clip(l.durable[:i])
		} else {
			l.durable = append(l.durable, op.entry)
		}
	}
	l.pending = nil
}

func cmpZxid(a, b core.Zxid) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Crash forgets unsynced operations but for a random prefix.
func (l *MemLog) Crash(rng *rand.Rand) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	if len(l.pending) > 0 {
		n = rng.IntN(len(l.pending) + 1)
	}
	l.apply(n)
}

func (l *MemLog) Entries(after core.Zxid) ([]core.Entry, error) {
	return l.EntriesBetween(after, math.MaxUint64)
}

// EntriesBetween returns the durable entries in (after, upto].
func (l *MemLog) EntriesBetween(after, upto core.Zxid) ([]core.Entry, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []core.Entry
	for _, e := range l.durable {
		if e.Zxid > after && e.Zxid <= upto {
			out = append(out, e)
		}
	}
	return out, nil
}

func (l *MemLog) Close() error { return nil }

// RemoveBefore keeps everything: memory twins are small.
func (l *MemLog) RemoveBefore(core.Zxid) error { return nil }

// MemStable is the in-memory twin of the stable store.
type MemStable struct {
	mu sync.Mutex
	st core.StableState
}

func (s *MemStable) Load() (core.StableState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st, nil
}

func (s *MemStable) Store(st core.StableState) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st = st
	return nil
}

// MemSnapshots is the in-memory twin of the snapshot folder.
type MemSnapshots struct {
	mu    sync.Mutex
	snaps []core.Snapshot
}

func (s *MemSnapshots) Save(snap core.Snapshot) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap.Data = slices.Clone(snap.Data)
	s.snaps = append(s.snaps, snap)
	if len(s.snaps) > 3 {
		s.snaps = slices.Delete(s.snaps, 0, 1)
	}
	return nil
}

func (s *MemSnapshots) Latest() (core.Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.snaps) == 0 {
		return core.Snapshot{}, ErrNoSnapshot
	}
	return s.snaps[len(s.snaps)-1], nil
}

// RemoveBefore forgets the snapshots below z.
func (s *MemSnapshots) RemoveBefore(z core.Zxid) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.snaps = slices.DeleteFunc(s.snaps, func(sn core.Snapshot) bool { return sn.Meta.Zxid < z })
	return nil
}

// NewMemStore returns a Store of in-memory twins.
func NewMemStore() *Store {
	return &Store{Log: &MemLog{}, Stable: &MemStable{}, Snapshots: &MemSnapshots{}}
}

// Lose forgets every unsynced operation: a crash that kept nothing.
func (l *MemLog) Lose() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = nil
}
