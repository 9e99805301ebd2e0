package storage

import (
	"bytes"
	"errors"
	"os"
	"testing"
	"time"

	"zablab/internal/wait"
)

// makeSpare has a spare of size bytes written in dir and reports whether its
// zeros went past the page cache.
func makeSpare(t *testing.T, dir string, size int64) bool {
	t.Helper()
	s, err := openSpare(dir, size)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	s.want(size)
	wait.For(t, "a spare log file", 30*time.Second, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.failed != nil {
			t.Fatalf("the spare failed: %v", s.failed)
		}
		return s.ready == size
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.direct
}

// allZeros fails unless path holds size zero bytes.
func allZeros(t *testing.T, path string, size int64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(b)) != size || !bytes.Equal(b, make([]byte, size)) {
		t.Fatalf("%s: %d bytes, want %d zeros", path, len(b), size)
	}
}

// Where the file system takes no O_DIRECT, or the size is no multiple of a
// page, the zeros go through the page cache: a spare all the same.
func TestSpareWithoutDirectWrites(t *testing.T) {
	dir := t.TempDir()
	if makeSpare(t, dir, 10_000) {
		t.Error("a spare of 10,000 bytes (no multiple of 4096) was written directly")
	}
	allZeros(t, sparePath(dir), 10_000)

	old := openSpareDirect
	t.Cleanup(func() { openSpareDirect = old })
	openSpareDirect = func(path string) (*os.File, error) { return nil, errors.Join(errNoDirect, errors.New(path)) }
	dir = t.TempDir()
	if makeSpare(t, dir, 64<<10) {
		t.Error("the spare was written directly, though O_DIRECT was refused")
	}
	allZeros(t, sparePath(dir), 64<<10)
}

func sparePath(dir string) string { return (&spare{dir: dir}).path() }
