package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
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

// holdersOf lists the folders holding dir's real path, outermost first,
// built from the path's elements (makeDir walks filepath.Dir upwards).
func holdersOf(t *testing.T, dir string) []string {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	sep := string(filepath.Separator)
	out := []string{sep}
	elems := strings.Split(strings.Trim(real, sep), sep)
	for i := 1; i < len(elems); i++ {
		out = append(out, sep+strings.Join(elems[:i], sep))
	}
	return out
}

// TestNewFoldersAreMadeDurable: every folder holding the store's folders
// is fsynced, outermost first, up to the root, at every opening: the new
// folders' entries must be durable, and an existing folder may have been
// left unsynced by a process killed between its mkdir and the fsyncs.
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
	// The store makes log and snap; the three openings inside it (log,
	// epochs, snapshots) make their folders again: five chains, each from
	// the root down to peer1.
	chain := holdersOf(t, log)
	if chain[len(chain)-1] != filepath.Join(root, "peer1") || !slices.Contains(chain, root) {
		t.Fatalf("holders of %s: %q", log, chain)
	}
	var want []string
	for range 5 {
		want = append(want, chain...)
	}
	if diff := cmp.Diff(want, *synced); diff != "" {
		t.Fatalf("folders fsynced for new entries (-want +got):\n%s", diff)
	}
	*synced = nil
	if err := makeDir(log); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(chain, *synced); diff != "" {
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
	if diff := cmp.Diff(holdersOf(t, dir), *synced); diff != "" {
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

// TestFolderTheFileSystemCannotSyncIsNoError: a holder on a file system
// that cannot fsync folders (the root of some containers) is left to it;
// an fsync that fails is an error.
func TestFolderTheFileSystemCannotSyncIsNoError(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "peer1")
	for _, c := range []struct {
		err  error
		fail bool
	}{
		{syscall.EINVAL, false}, {syscall.EROFS, false}, {errors.ErrUnsupported, false},
		{syscall.EIO, true},
	} {
		sep := string(filepath.Separator)
		syncParent = func(d string) error {
			if d == sep {
				return &fs.PathError{Op: "sync", Path: d, Err: c.err}
			}
			return syncDir(d)
		}
		err := makeDir(dir)
		syncParent = syncDir
		if (err != nil) != c.fail {
			t.Errorf("makeDir(%s) with the root's fsync failing by %v: %v", dir, c.err, err)
		}
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
