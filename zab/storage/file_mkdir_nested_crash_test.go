package storage

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestNestedFoldersLeftUnsyncedByACrashAreSyncedAtRestart: as
// TestFolderLeftUnsyncedByACrashIsSyncedAtRestart, for a log folder whose
// parent was new too (dataLogDir=peer1/log in a fresh tree, as make run
// lays out). MkdirAll made peer1 and peer1/log and the process was killed
// before the first fsync. At the restart makeDir finds the folder
// existing and fsyncs only peer1 (the entry of log); the entry of peer1
// in root stays in the page cache, so a power loss can still take peer1
// with the acknowledged writes under it (review rev25c).
func TestNestedFoldersLeftUnsyncedByACrashAreSyncedAtRestart(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "peer1", "log")
	// What the killed process left: MkdirAll done, no parent fsynced.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	synced := recordParentSyncs(t, nil)
	l, err := OpenFileLog(dir, FileLogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if !slices.Contains(*synced, root) {
		t.Errorf("restart after a crash between MkdirAll of peer1/log and the fsyncs synced %q; want %s (holding peer1's entry) among them too", *synced, root)
	}
}
