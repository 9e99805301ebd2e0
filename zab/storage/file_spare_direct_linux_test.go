package storage

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// skipOnTmpfs skips where dir's files live in the page cache: nothing there
// bypasses it, and nothing is read from a disk.
func skipOnTmpfs(t *testing.T, dir string) {
	t.Helper()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err == nil && st.Type == unix.TMPFS_MAGIC {
		t.Skipf("%s is on tmpfs, whose files live in the page cache", dir)
	}
}

// A spare's zeros bypass the page cache where the file system allows it:
// none of its pages is cached once it is ready (through the cache, every
// one of them stays there, clean).
func TestSpareZerosBypassThePageCache(t *testing.T) {
	dir := t.TempDir()
	skipOnTmpfs(t, dir)
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

// readBytes is what this process has had the storage layer read for it.
func readBytes(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skipf("no I/O accounting here: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "read_bytes: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no read_bytes in /proc/self/io")
	return 0
}

// fsReads is what the file system itself may read for a process's writes
// (a block of its own metadata: 4096 bytes in one run of 40 here). A page
// read per 4 KiB of log is ten or twenty times more in the test below.
const fsReads = 2 * 4096

// Appends into a spare whose zeros skipped the page cache read nothing from
// the disk: each write runs on to the end of its page with zeros, so the
// kernel need not read the page to keep the rest of it.
func TestAppendsIntoADirectSpareReadNothing(t *testing.T) {
	dir := t.TempDir()
	skipOnTmpfs(t, dir)
	if f, err := openDirect(filepath.Join(dir, "probe")); err != nil {
		t.Skipf("the file system of %s takes no O_DIRECT: %v", dir, err)
	} else {
		f.Close()
	}
	opts := FileLogOptions{MaxFileBytes: 256 << 10}
	l := openLog(t, dir, opts)
	defer closeLog(t, l)
	for c := uint32(1); c < 281; c += 10 { // past half of the first file, then into the spare
		writeLog(t, l, sizedEntries(c, 10, 1000))
		if c == 141 {
			waitForSpare(t, dir, opts.MaxFileBytes)
		}
	}
	if files := logFiles(t, dir); len(files) != 2 {
		t.Fatalf("log files %v, want 2: the spare was not taken", files)
	}
	before := readBytes(t)
	for c := uint32(281); c < 361; c++ {
		writeLog(t, l, sizedEntries(c, 1, 1000))
	}
	if read := readBytes(t) - before; read > fsReads {
		t.Errorf("80 appends of 1 KiB into the spare read %d bytes from the disk", read)
	}
	checkEntries(t, l, 0, sizedEntries(1, 360, 1000))
}
