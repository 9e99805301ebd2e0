package storage

import (
	"testing"

	"zablab/zab/core"
)

// Group commit with forceSync on (the default): a Sync with nothing new
// issues no fsync (TestFileLogGroupCommit). TruncateAfter is durable when
// it returns (it fsyncs the cut file itself), so a Sync right after it has
// nothing new either. Store.Persist does exactly this for every Ready
// with a truncation and no entries (a follower's TRUNC, an installed SNAP).
func TestSyncAfterTruncateAfterIssuesNoFsync(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts FileLogOptions
		z    core.Zxid
	}{
		{"cut inside the last file", FileLogOptions{}, core.NewZxid(1, 20)},
		{"cut in an older file", smallFiles, core.NewZxid(1, 3)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			l := openLog(t, dir, tc.opts)
			defer closeLog(t, l)
			es := testEntries(1, 1, 40)
			writeLog(t, l, es)
			if err := l.TruncateAfter(tc.z); err != nil {
				t.Fatal(err)
			}
			before := l.Fsyncs()
			if err := l.Sync(); err != nil {
				t.Fatal(err)
			}
			if n := l.Fsyncs() - before; n != 0 {
				t.Errorf("Sync with nothing new after a (durable) TruncateAfter issued %d fsyncs, want 0", n)
			}
			checkEntries(t, l, 0, entriesUpTo(es, tc.z))
		})
	}
}

// The same through Store.Persist: a Ready that only truncates costs one
// fsync (TruncateAfter's own), not two.
func TestPersistOfATruncationFsyncsOnce(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, FileLogOptions{})
	defer closeLog(t, l)
	writeLog(t, l, testEntries(1, 1, 40))
	st := &Store{Log: l, Stable: &MemStable{}, Snapshots: &MemSnapshots{}}
	before := l.Fsyncs()
	z := core.NewZxid(1, 20)
	if err := st.Persist(&core.Ready{Truncate: &z}); err != nil {
		t.Fatal(err)
	}
	if n := l.Fsyncs() - before; n != 0 {
		t.Errorf("Persist(Truncate only) issued %d Sync fsyncs after TruncateAfter's own, want 0", n)
	}
}
