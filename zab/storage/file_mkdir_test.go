package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// recordParentSyncs makes syncParent record the folders it syncs (and
// fail with fail, if set) for the rest of the test.
func recordParentSyncs(t *testing.T, fail error) *[]string {
	var synced []string
	syncParent = func(dir string) error {
		synced = append(synced, dir)
		if fail != nil {
			return fail
		}
		return syncDir(dir)
	}
	t.Cleanup(func() { syncParent = syncDir })
	return &synced
}

// TestNewFoldersAreMadeDurable: every folder the store creates is made
// durable by fsyncing the folder that holds it, outermost first; a folder
// that exists gets its own entry synced once.
func TestNewFoldersAreMadeDurable(t *testing.T) {
	root := t.TempDir()
	synced := recordParentSyncs(t, nil)
	log, snap := filepath.Join(root, "peer1", "log"), filepath.Join(root, "peer1", "snap")
	s, err := OpenFileStore(log, snap)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Log.(*FileLog).Close(); err != nil {
		t.Fatal(err)
	}
	// peer1 and log are new for the log folder, snap for the snapshots';
	// the three openings inside the store (log, epochs, snapshots) find
	// their folders there and sync the folder holding them once each.
	peer1 := filepath.Join(root, "peer1")
	want := []string{root, peer1, peer1, peer1, peer1, peer1}
	if diff := cmp.Diff(want, *synced); diff != "" {
		t.Fatalf("folders fsynced for new entries (-want +got):\n%s", diff)
	}
	// An existing folder has the folder holding it fsynced once: a process
	// killed between the mkdir and that fsync left the entry unsynced.
	*synced = nil
	if err := makeDir(log); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{filepath.Join(root, "peer1")}, *synced); diff != "" {
		t.Fatalf("folders fsynced for an existing one (-want +got):\n%s", diff)
	}
}

// TestFailedFolderSyncIsAnError: a new folder whose entry cannot be made
// durable fails the opening, and is removed again, so that a retry (the
// peer's restart) creates and fsyncs it anew instead of taking it for
// durable.
func TestFailedFolderSyncIsAnError(t *testing.T) {
	root := t.TempDir()
	recordParentSyncs(t, errors.New("injected: fsync failed"))
	dir := filepath.Join(root, "peer1", "log")
	err := makeDir(dir)
	if err == nil || !strings.Contains(err.Error(), "injected") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("makeDir(%s) with a failing fsync: %v", dir, err)
	}
	if _, err := os.Lstat(filepath.Join(root, "peer1")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the folders of a failed makeDir were left behind: %v", err)
	}
	synced := recordParentSyncs(t, nil)
	if err := makeDir(dir); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{root, filepath.Join(root, "peer1")}, *synced); diff != "" {
		t.Fatalf("the retry's fsyncs (-want +got):\n%s", diff)
	}
}

// TestUnreadableParentIsNoError: a parent the process may write but not
// read (mode -wx) cannot be opened to fsync; the folder is created all
// the same, as before makeDir synced anything, and stays.
func TestUnreadableParentIsNoError(t *testing.T) {
	root := t.TempDir()
	recordParentSyncs(t, fmt.Errorf("storage: open %s: %w", root, fs.ErrPermission))
	dir := filepath.Join(root, "peer1")
	if err := makeDir(dir); err != nil {
		t.Fatalf("makeDir(%s) under an unreadable parent: %v", dir, err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("%s after makeDir: %v", dir, err)
	}
}

// TestRawParent: the folder holding a path as written.
func TestRawParent(t *testing.T) {
	sep := string(filepath.Separator)
	for _, c := range [][2]string{
		{"log", "."}, {"a" + sep + "b", "a"}, {"a" + sep + "b" + sep, "a"}, {sep + "a", sep}, {sep, sep},
		{"a" + sep + ".." + sep + "b", "a" + sep + ".."}, {"." + sep + "a", "."},
	} {
		if got := rawParent(c[0]); got != c[1] {
			t.Errorf("rawParent(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

// TestOpeningSyncsTheLogFolder: the log's folder is fsynced at every
// opening, an empty log's included, so that what a killed process changed
// in it (a removed file above all) cannot come back after a power loss.
func TestOpeningSyncsTheLogFolder(t *testing.T) {
	dir := t.TempDir()
	var synced []string
	syncOpenedDir = func(d string) error { synced = append(synced, d); return syncDir(d) }
	t.Cleanup(func() { syncOpenedDir = syncDir })
	for range 2 {
		l, err := OpenFileLog(dir, FileLogOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]string{dir, dir}, synced); diff != "" {
		t.Fatalf("folders fsynced at two openings (-want +got):\n%s", diff)
	}
	syncOpenedDir = func(string) error { return errors.New("injected: fsync failed") }
	if _, err := OpenFileLog(dir, FileLogOptions{}); err == nil {
		t.Fatal("a log opened although its folder could not be fsynced")
	}
}
