package storage

import (
	"testing"

	"zablab/zab/core"
)

// A process killed between a write and its fsync leaves the written records
// in the page cache, and the next opening reads them like any other. The
// peer then vouches for them without appending anything: a follower level
// with its new leader persists only its epoch (a Ready without entries,
// which Persist does not Sync the log for) and answers ACKLD with its last
// zxid; a new leader counts its own log towards the quorum the same way. A
// machine crash after that loses records a quorum counted on. So opening
// must make what it returns durable.
func TestReopenedLogFsyncsRecordsTheLastProcessOnlyWrote(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, FileLogOptions{})
	es := testEntries(1, 1, 20)
	writeLog(t, l, es[:10])
	l.SetForceSync(false) // written, not fsynced: a kill -9 before the fsync
	writeLog(t, l, es[10:])
	crash(l)

	l = openLog(t, dir, FileLogOptions{})
	defer closeLog(t, l)
	st := &Store{Log: l, Stable: &MemStable{}, Snapshots: &MemSnapshots{}}
	restored, _, err := st.Restore()
	if err != nil {
		t.Fatal(err)
	}
	if len(restored.Entries) != len(es) {
		t.Fatalf("Restore gave %d entries, want %d", len(restored.Entries), len(es))
	}
	// What a follower level with the leader persists before its ACKLD.
	if err := st.Persist(&core.Ready{Stable: &core.StableState{AcceptedEpoch: 2, CurrentEpoch: 2}}); err != nil {
		t.Fatal(err)
	}
	if n := l.Fsyncs(); n == 0 {
		t.Fatalf("Restore returned %d entries as durable and the epoch was stored (an ACKLD may leave now), "+
			"but the log was never fsynced since the process that wrote entries %v..%v died before its fsync",
			len(restored.Entries), es[10].Zxid, es[19].Zxid)
	}
}
