package storage

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFolderLeftUnsyncedByACrashIsSyncedAtRestart: makeDir creates the
// log folder (MkdirAll) and only then fsyncs its parent. A process killed
// between the two leaves a folder whose entry is in the page cache only;
// the restart finds it existing and takes it for durable (makeDir syncs
// only folders it creates, syncOpened only the folder's own entries), so
// the peer acknowledges writes into a folder a power loss can still take
// away. makeDir's comment says a folder whose sync failed is removed "so
// that the next opening creates and fsyncs them anew instead of taking
// them for durable"; a kill is the same state by another way.
func TestFolderLeftUnsyncedByACrashIsSyncedAtRestart(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "log")
	// What the killed process left: MkdirAll done, the parent not fsynced.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var synced []string
	syncParent = func(d string) error { synced = append(synced, d); return syncDir(d) }
	syncOpenedDir = func(d string) error { synced = append(synced, d); return syncDir(d) }
	t.Cleanup(func() { syncParent, syncOpenedDir = syncDir, syncDir })

	l, err := OpenFileLog(dir, FileLogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if !slices.Contains(synced, root) {
		t.Errorf("restart after a crash between mkdir and the parent's fsync synced %q; want %s (the parent holding the log folder's entry) among them", synced, root)
	}
}
