//go:build !linux

package storage

import (
	"fmt"
	"os"
)

// preallocate grows f to off+length. Without fallocate the new range is a
// hole; the reader stops at its zeros all the same.
func preallocate(f *os.File, off, length int64) error {
	if err := f.Truncate(off + length); err != nil {
		return fmt.Errorf("storage: preallocate %s: %w", f.Name(), err)
	}
	return nil
}

// syncData makes f's data durable (F_FULLFSYNC on macOS).
func syncData(f *os.File) error {
	if err := f.Sync(); err != nil {
		return fmt.Errorf("storage: sync %s: %w", f.Name(), err)
	}
	return nil
}

// writeBack does nothing here: without sync_file_range the spare's zeros
// reach the disk with its final fsync.
func writeBack(*os.File, int64, int64) error { return nil }

func freeBytes(string) (int64, bool) { return 0, false }

const directAlign = 4096

// openDirect: no O_DIRECT here; the spare goes through the cache.
func openDirect(path string) (*os.File, error) {
	return nil, fmt.Errorf("%w: %s", errNoDirect, path)
}

// writeAtPadded writes p at off; the zeros after it are left out here.
func writeAtPadded(f *os.File, p []byte, _ int, off int64) (int, error) {
	return f.WriteAt(p, off)
}
