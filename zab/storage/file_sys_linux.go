//go:build linux

package storage

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// preallocate grows f to off+length with allocated, zeroed blocks, so later
// writes into that range need no block allocation and fdatasync need not
// update the file size. File systems without fallocate get a sparse file.
func preallocate(f *os.File, off, length int64) error {
	err := unix.Fallocate(int(f.Fd()), 0, off, length)
	for err == unix.EINTR { // a signal on its way (SIGPROF, say) is no failure
		err = unix.Fallocate(int(f.Fd()), 0, off, length)
	}
	if errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOSYS) {
		err = f.Truncate(off + length)
	}
	if err != nil {
		return fmt.Errorf("storage: preallocate %s: %w", f.Name(), err)
	}
	return nil
}

// syncData makes f's data durable. fdatasync skips metadata such as mtime
// that a reader does not need, which saves a journal write per batch.
func syncData(f *os.File) error {
	for {
		err := unix.Fdatasync(int(f.Fd()))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("storage: sync %s: %w", f.Name(), err)
		}
		return nil
	}
}

// writeBack starts writing f's dirty pages in [off, off+n) to the disk and
// waits for them, without flushing the disk's cache or the file's metadata:
// it keeps a large write from piling up for one long fsync.
func writeBack(f *os.File, off, n int64) error {
	const flags = unix.SYNC_FILE_RANGE_WAIT_BEFORE | unix.SYNC_FILE_RANGE_WRITE | unix.SYNC_FILE_RANGE_WAIT_AFTER
	for {
		err := unix.SyncFileRange(int(f.Fd()), off, n, flags)
		if err == unix.EINTR {
			continue
		}
		if err != nil && !errors.Is(err, unix.ENOSYS) {
			return fmt.Errorf("storage: write back %s: %w", f.Name(), err)
		}
		return nil
	}
}

// freeBytes is what unprivileged writers may still allocate in dir's file system.
func freeBytes(dir string) (int64, bool) {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}

// directAlign is the alignment of a direct write's memory, offset and size:
// a page, which covers the 512 and 4096 byte blocks of disks.
const directAlign = 4096

// openDirect creates path for writes that bypass the page cache, or returns
// errNoDirect where the file system refuses O_DIRECT (tmpfs on older
// kernels, some network file systems).
func openDirect(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC|unix.O_DIRECT, 0o644)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EOPNOTSUPP) {
		return nil, fmt.Errorf("%w: %s: %w", errNoDirect, path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: create %s: %w", path, err)
	}
	return f, nil
}

// zeroPage is what writeAtPadded appends.
var zeroPage [pageSize]byte

// writeAtPadded writes p at off followed by pad (< pageSize) zeros, in one
// system call and without copying p, and returns how much of p it wrote.
func writeAtPadded(f *os.File, p []byte, pad int, off int64) (int, error) {
	n, err := unix.Pwritev(int(f.Fd()), [][]byte{p, zeroPage[:pad]}, off)
	for err == unix.EINTR {
		n, err = unix.Pwritev(int(f.Fd()), [][]byte{p, zeroPage[:pad]}, off)
	}
	if err != nil {
		return 0, err
	}
	if n < len(p) { // a short write: the rest of p without the zeros
		m, err := f.WriteAt(p[n:], off+int64(n))
		return n + m, err
	}
	return len(p), nil
}
