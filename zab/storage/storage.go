package storage

import (
	"errors"
	"fmt"

	"zablab/zab/core"
)

// Sentinel errors; implementations wrap them with %w.
var (
	ErrCorrupt    = errors.New("storage: corrupt data")
	ErrNoSnapshot = errors.New("storage: no snapshot")
	ErrClosed     = errors.New("storage: closed")
)

// Log is the transaction log. Append and TruncateAfter may be buffered;
// only Sync makes them durable. A crash keeps a prefix of what was not
// synced: whole records, never a torn one.
type Log interface {
	Append(entries []core.Entry) error
	TruncateAfter(z core.Zxid) error
	Sync() error
	// Entries returns the durable entries above z, in order.
	Entries(after core.Zxid) ([]core.Entry, error)
	// EntriesBetween returns the durable entries in (after, upto], in order.
	EntriesBetween(after, upto core.Zxid) ([]core.Entry, error)
	// RemoveBefore may drop entries at or below z, which a durable snapshot
	// holds; implementations keep whatever is convenient.
	RemoveBefore(z core.Zxid) error
	Close() error
}

// Stable holds acceptedEpoch and currentEpoch. Store is atomic and durable
// when it returns.
type Stable interface {
	Load() (core.StableState, error)
	Store(core.StableState) error
}

// Snapshots keeps the application's snapshots. Save is atomic and durable
// when it returns; Latest returns the newest intact one, or ErrNoSnapshot.
// RemoveBefore removes, durably, every snapshot below z: they are no
// longer a valid fallback once the log does not reach back to them.
type Snapshots interface {
	Save(core.Snapshot) error
	Latest() (core.Snapshot, error)
	RemoveBefore(z core.Zxid) error
}

// Store bundles a peer's three stores.
type Store struct {
	Log       Log
	Stable    Stable
	Snapshots Snapshots

	locks []*dirLock // the data folders' locks (OpenFileStore); released by Close

	logDir, snapDir string // the folders (OpenFileStore): Restore's errors name theirs (DirError)
}

// Close closes the log and releases the data folders' locks.
func (s *Store) Close() error {
	err := s.Log.Close()
	return errors.Join(err, unlockAll(s.locks))
}

// Warnings says what opening the store repaired or skipped: a torn log tail
// cut, a damaged snapshot passed over. The runtime logs them; nothing is
// lost that was acknowledged, but an operator wants to know.
func (s *Store) Warnings() []string {
	var out []string
	if l, ok := s.Log.(interface{ Repaired() string }); ok && l.Repaired() != "" {
		out = append(out, l.Repaired())
	}
	if sn, ok := s.Snapshots.(interface{ Skipped() []string }); ok {
		out = append(out, sn.Skipped()...)
	}
	return out
}

// LatestSnapshot lets a Store serve as the core's SnapshotSource. With no
// snapshot it returns the empty initial state.
func (s *Store) LatestSnapshot() (core.Snapshot, error) {
	snap, err := s.Snapshots.Latest()
	if errors.Is(err, ErrNoSnapshot) {
		return core.Snapshot{}, nil
	}
	return snap, err
}

// Persist makes rd's durable parts durable, in the order the Ready contract
// demands: snapshot, truncation, entries, one sync, stable state.
//
// An installed snapshot (SNAP) supersedes the whole history below it: the
// older snapshots go, and so do the log files below it, so that a damaged
// SNAP snapshot found at the next start can never be replaced by an older
// snapshot plus stale entries and a gap (Restore then fails instead).
func (s *Store) Persist(rd *core.Ready) error {
	if rd.Snapshot != nil {
		z := rd.Snapshot.Meta.Zxid
		if err := s.Snapshots.Save(*rd.Snapshot); err != nil {
			return err
		}
		if err := s.Log.TruncateAfter(z); err != nil {
			return err
		}
		if err := s.Compact(z); err != nil {
			return err
		}
	}
	if rd.Truncate != nil {
		if err := s.Log.TruncateAfter(*rd.Truncate); err != nil {
			return err
		}
	}
	if len(rd.Entries) > 0 {
		if err := s.Log.Append(rd.Entries); err != nil {
			return err
		}
	}
	if rd.Snapshot != nil || rd.Truncate != nil || len(rd.Entries) > 0 {
		if err := s.Log.Sync(); err != nil {
			return err
		}
	}
	if rd.Stable != nil {
		return s.Stable.Store(*rd.Stable)
	}
	return nil
}

// Compact drops what a durable snapshot at z makes unnecessary: older
// snapshots first, then log files below z. In this order a crash in between
// leaves no snapshot whose log is gone.
func (s *Store) Compact(z core.Zxid) error {
	if err := s.Snapshots.RemoveBefore(z); err != nil {
		return err
	}
	return s.Log.RemoveBefore(z)
}

// Restore reads what a peer starts from: stable state, the newest snapshot
// (nil for none) and the log after it.
func (s *Store) Restore() (core.Restored, *core.Snapshot, error) {
	var r core.Restored
	st, err := s.Stable.Load()
	if err != nil {
		return r, nil, s.inDir(false, err)
	}
	r.Stable = st
	var snap *core.Snapshot
	latest, err := s.Snapshots.Latest()
	switch {
	case err == nil:
		snap = &latest
		r.Snapshot = latest.Meta
	case !errors.Is(err, ErrNoSnapshot):
		return r, nil, s.inDir(false, err)
	}
	r.Entries, err = s.Log.Entries(r.Snapshot.Zxid)
	if err == nil {
		err = s.checkNoHole(r.Snapshot.Zxid, r.Entries)
	}
	return r, snap, s.inDir(true, err)
}

// inDir marks err as about the log's folder (log) or the snapshots' folder
// of a file store; a store not opened from folders leaves it as it is.
func (s *Store) inDir(log bool, err error) error {
	if err == nil || s.logDir == "" {
		return err
	}
	if log {
		return &DirError{Dir: s.logDir, Log: true, Err: err}
	}
	return &DirError{Dir: s.snapDir, Err: err}
}

// checkNoHole refuses a history with a hole: within an epoch zxids count
// up by one and every epoch starts at counter 1, so an entry that does not
// follow the one before (or the snapshot) means entries were lost, such as
// a log file deleted by hand or by fsck. A peer started on it could lead
// and cut a follower's committed entries that fall into the hole.
func (s *Store) checkNoHole(base core.Zxid, es []core.Entry) error {
	prev := base
	for _, e := range es {
		if !follows(prev, e.Zxid) {
			where := "the log"
			if d, ok := s.Log.(interface{ Dir() string }); ok {
				where = "the log in " + d.Dir()
			}
			return fmt.Errorf("%w: %s has a hole: entry %v follows %v (snapshot %v); the entries between are missing, "+
				"as after a log file was deleted: restore that file or move the folder away and let the leader send a snapshot",
				ErrCorrupt, where, e.Zxid, prev, base)
		}
		prev = e.Zxid
	}
	return nil
}

// follows reports whether z may come right after prev in a history.
func follows(prev, z core.Zxid) bool {
	if z.Epoch() == prev.Epoch() {
		return z.Counter() == prev.Counter()+1
	}
	return z.Epoch() > prev.Epoch() && z.Counter() == 1
}
