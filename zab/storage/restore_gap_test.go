package storage

import (
	"os"
	"path/filepath"
	"testing"

	"zablab/zab/core"
)

// A log file lost from the middle of the log (fsck moved it to lost+found,
// an operator purged "old" logs by date, a backup missed it) left a
// history with a hole, and the peer started on it silently. Zxids within
// an epoch have no gaps and an epoch starts at counter 1, so the hole is
// plain to see; a peer that starts on it and leads would send TRUNC to a
// follower whose last zxid falls in the hole, cutting committed entries.
// The peer must refuse to start, naming the log folder and the hole.
func TestRestoreRefusesALogWithAHole(t *testing.T) {
	for _, tc := range []struct {
		name string
		snap uint32 // counter of the snapshot; 0: none
		lost int    // index of the log file that goes missing
	}{
		{"a file in the middle", 0, 2},
		{"the file right after the snapshot", 12, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			logDir, snapDir := filepath.Join(base, "log"), filepath.Join(base, "snap")
			s := openStore(t, logDir, snapDir)
			persist(t, s, core.Ready{Entries: testEntries(1, 1, 40), Stable: &core.StableState{AcceptedEpoch: 1, CurrentEpoch: 1}})
			if tc.snap != 0 {
				save(t, s.Snapshots.(*FileSnapshots), testSnapshot(1, tc.snap))
				if err := compact(s, core.NewZxid(1, tc.snap)); err != nil {
					t.Fatal(err)
				}
			}
			closeLog(t, s.Log.(*FileLog))
			files := logFiles(t, logDir)
			if len(files) < 4 {
				t.Fatalf("only %d log files: the test needs more", len(files))
			}
			if err := os.Remove(filepath.Join(logDir, files[tc.lost])); err != nil {
				t.Fatal(err)
			}
			s = openStore(t, logDir, snapDir)
			defer s.Log.Close()
			checkRestore(t, s, logDir)
		})
	}
}
