//go:build linux

package storage

import (
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// smallFileSystem mounts a tmpfs of size bytes for the test and returns
// its folder; without the privilege to mount, the test is skipped.
func smallFileSystem(t *testing.T, size int64) string {
	t.Helper()
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.FormatInt(size, 10)); err != nil {
		t.Skipf("cannot mount a small tmpfs at %s (needs root): %v", dir, err)
	}
	t.Cleanup(func() {
		if err := unix.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}
