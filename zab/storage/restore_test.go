package storage

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"zablab/zab/core"
)

// openStore opens a file store whose log rotates after every few entries,
// so RemoveBefore really removes files.
func openStore(t *testing.T, logDir, snapDir string) *Store {
	t.Helper()
	lg := openLog(t, logDir, FileLogOptions{MaxFileBytes: 200, PreallocBytes: -1})
	st, err := OpenFileStable(snapDir)
	if err != nil {
		t.Fatal(err)
	}
	sn := openSnaps(t, snapDir, 3)
	return &Store{Log: lg, Stable: st, Snapshots: sn}
}

func persist(t *testing.T, s *Store, rd core.Ready) {
	t.Helper()
	if err := s.Persist(&rd); err != nil {
		t.Fatalf("Persist: %v", err)
	}
}

// checkNoGap fails unless restoring gives an error naming a file, or a
// snapshot followed by a history without a gap that contains every entry
// after it of want.
func checkRestore(t *testing.T, s *Store, wantErrFile string) {
	t.Helper()
	r, snap, err := s.Restore()
	if err == nil {
		z := core.Zxid(0)
		if snap != nil {
			z = snap.Meta.Zxid
		}
		var zs []string
		for _, e := range r.Entries {
			zs = append(zs, e.Zxid.String())
		}
		t.Fatalf("Restore gave snapshot %s + [%s]; want an error naming %s", z, strings.Join(zs, " "), wantErrFile)
	}
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), wantErrFile) {
		t.Fatalf("Restore: %v; want ErrCorrupt naming %s", err, wantErrFile)
	}
}

// Bug 4 of issue 7: after a SNAP install, an older snapshot plus the stale
// log below the installed one is no valid history.
func TestRestoreAfterDamagedSnapInstallHasNoGap(t *testing.T) {
	base := t.TempDir()
	logDir, snapDir := filepath.Join(base, "log"), filepath.Join(base, "snap")
	s := openStore(t, logDir, snapDir)
	persist(t, s, core.Ready{Entries: testEntries(1, 1, 5), Stable: &core.StableState{AcceptedEpoch: 1, CurrentEpoch: 1}})
	s1 := testSnapshot(1, 3)
	save(t, s.Snapshots.(*FileSnapshots), s1)
	installed := testSnapshot(2, 10) // SNAP from a leader of epoch 2
	persist(t, s, core.Ready{Snapshot: &installed, Entries: testEntries(2, 11, 11),
		Stable: &core.StableState{AcceptedEpoch: 2, CurrentEpoch: 2}})
	closeLog(t, s.Log.(*FileLog))

	name := filepath.Join(snapDir, zxidName(snapPrefix, installed.Meta.Zxid))
	flipByte(t, name, snapHeaderSize+1)
	s = openStore(t, logDir, snapDir)
	defer s.Log.Close()
	checkRestore(t, s, filepath.Base(name))
}

// The newest two own snapshots damaged after the log files below the older
// of them were removed: the third snapshot no longer has its log.
func TestRestoreAfterCompactionWithTwoDamagedSnapshotsFails(t *testing.T) {
	base := t.TempDir()
	logDir, snapDir := filepath.Join(base, "log"), filepath.Join(base, "snap")
	s := openStore(t, logDir, snapDir)
	persist(t, s, core.Ready{Entries: testEntries(1, 1, 40), Stable: &core.StableState{AcceptedEpoch: 1, CurrentEpoch: 1}})
	sn := s.Snapshots.(*FileSnapshots)
	for _, c := range []uint32{10, 20, 30} {
		save(t, sn, testSnapshot(1, c))
	}
	// What the runtime does after snapshot 30: drop what snapshot 20 holds.
	if err := compact(s, core.NewZxid(1, 20)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Log.Entries(0); len(got) == 0 || got[0].Zxid <= core.NewZxid(1, 11) {
		t.Fatalf("log files below 20 were not removed: first entry %v; the test needs them gone", got)
	}
	closeLog(t, s.Log.(*FileLog))
	for _, c := range []uint32{20, 30} {
		flipByte(t, filepath.Join(snapDir, zxidName(snapPrefix, core.NewZxid(1, c))), snapHeaderSize+1)
	}
	s = openStore(t, logDir, snapDir)
	defer s.Log.Close()
	checkRestore(t, s, zxidName(snapPrefix, core.NewZxid(1, 20)))
}

// compact is what the runtime calls after a snapshot.
func compact(s *Store, z core.Zxid) error { return s.Compact(z) }
