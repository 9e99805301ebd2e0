package storage

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// cachedPages counts the pages of path that are in the page cache.
func cachedPages(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(fi.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	vec := make([]byte, (len(m)+os.Getpagesize()-1)/os.Getpagesize())
	_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0])))
	if errno != 0 {
		t.Fatal(errno)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}

// A spare's zeros bypass the page cache where the file system allows it:
// none of its pages is cached once it is ready (through the cache, every
// one of them stays there, clean).
func TestSpareZerosBypassThePageCache(t *testing.T) {
	dir := t.TempDir()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err == nil && st.Type == unix.TMPFS_MAGIC {
		t.Skipf("%s is on tmpfs, whose files live in the page cache", dir)
	}
	f, err := openDirect(filepath.Join(dir, "probe"))
	if errors.Is(err, errNoDirect) {
		t.Skipf("the file system of %s takes no O_DIRECT: %v", dir, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	const size = 1 << 20
	if !makeSpare(t, dir, size) {
		t.Fatal("the spare went through the page cache, though O_DIRECT is possible here")
	}
	if n := cachedPages(t, sparePath(dir)); n != 0 {
		t.Errorf("%d of the spare's %d pages are in the page cache", n, size/os.Getpagesize())
	}
	allZeros(t, sparePath(dir), size)
}
