//go:build !windows

package storage

import (
	"os"
	"path/filepath"
	"testing"
)

// Symbolic links need a privilege on Windows: this file's case is a Unix one.

// TestFolderThroughALinkSyncsWhereTheKernelCreates: through link ->
// real/sub, link/../new is real/new (the kernel follows the link before
// the ".."), so real is the folder to fsync, not the one a lexical
// cleaning of the path names (from a review).
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
	if len(*synced) != 1 || !sameFolder(t, (*synced)[0], real) {
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
