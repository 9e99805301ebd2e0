//go:build !windows

package storage

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Symbolic links need a privilege on Windows: this file's case is a Unix one.

// TestFolderThroughALinkSyncsWhereTheKernelCreates: through link ->
// real/sub, link/../new is real/new (the kernel follows the link before
// the ".."), so real is the folder to fsync, not the one a lexical
// cleaning of the path names (from a review); sub, which a cleaning
// through the link's name would have taken, is not among them.
func TestFolderThroughALinkSyncsWhereTheKernelCreates(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(real, "sub"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	synced := recordParentSyncs(t, nil)
	dir := filepath.Join(root, "link") + string(filepath.Separator) + ".." + string(filepath.Separator) + "new"
	if err := makeDir(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(real, "new")); err != nil {
		t.Fatalf("the kernel did not create real/new: %v", err)
	}
	if len(*synced) == 0 || !sameFolder(t, (*synced)[len(*synced)-1], real) || slices.Contains(*synced, filepath.Join(real, "sub")) {
		t.Fatalf("makeDir(%s) created %s but fsynced %q", dir, filepath.Join(real, "new"), *synced)
	}
}

// sameFolder says whether two paths name one folder.
func sameFolder(t *testing.T, a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	return os.SameFile(fa, fb)
}
