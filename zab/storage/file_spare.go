package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"unsafe"
)

// The next log file, written with zeros ahead of time.
//
// fallocate reserves blocks but marks them unwritten: the first write into
// each turns it into a written one, and the fdatasync after that write must
// also write the file's extent map. Under the bench's 32-client writes that
// made each of a peer's syncs take 1.5 ms at the median instead of 0.9
// (measured before and after this file). Blocks that already hold
// zeros need no such change, so a goroutine of the log writes the next file
// with zeros before it is needed, fsyncs it and names it log.spare, and
// rotation renames it into place instead of creating and fallocating one.
//
// It starts once the file being appended to is half full. A file that did
// not come from a spare (a fresh log's first, or the newest one after a
// restart) is left early, at the first record after 1 MiB once a spare is
// ready, so a busy log does not pay the slower syncs for 64 MiB.
//
// Zeros cost as many bytes as the records that later replace them, and save
// one metadata write per fsync: they pay where fsyncs are many and small.
// In the bench, 1 KiB writes (about 11 KiB per fsync) went 22-25 % faster
// with spares, 64 KiB writes (about a MiB per fsync) 15-35 % slower, their
// zeros doubling what the disk had to write. So a spare is written only
// for a file whose fsyncs so far averaged at most spareSyncBytes, and never
// with forceSync=no (no fsyncs, nothing to save).
const (
	spareName      = "log.spare"
	spareChunk     = 256 << 10 // zeros written, and handed to the disk, at a time
	spareEarly     = 1 << 20   // a file not from a spare is left after this much
	spareSyncBytes = 128 << 10 // the largest mean fsync that a spare pays for
)

// spare prepares at most one spare file of a log folder at a time.
type spare struct {
	dir     string
	mu      sync.Mutex
	busy    bool  // a goroutine is writing the spare
	ready   int64 // size of the complete, durable spare on disk; 0: none
	failed  error // why the last one could not be written; no retry until taken is called
	stopped bool
	direct  bool // the last spare's zeros went past the page cache (tests)
	stop    chan struct{}
	wg      sync.WaitGroup
}

// openSpare adopts a spare an earlier run left in dir if it has the size a
// file of this log needs, and removes it and any half-written one otherwise.
func openSpare(dir string, size int64) (*spare, error) {
	s := &spare{dir: dir, stop: make(chan struct{})}
	if err := removeIfExists(s.path() + tmpSuffix); err != nil {
		return nil, err
	}
	fi, err := os.Stat(s.path())
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("storage: stat %s: %w", s.path(), err)
	case fi.Mode().IsRegular() && fi.Size() == size:
		s.ready = size
	default:
		if err := removeIfExists(s.path()); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *spare) path() string { return filepath.Join(s.dir, spareName) }

// removeSpares deletes a spare and a half-written one from dir.
func removeSpares(dir string) error {
	for _, name := range []string{spareName, spareName + tmpSuffix} {
		if err := removeIfExists(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// want starts writing a spare of size bytes unless one is ready or under
// way.
func (s *spare) want(size int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy || s.ready != 0 || s.failed != nil || s.stopped {
		return
	}
	s.busy = true
	s.wg.Add(1)
	go s.write(size)
}

// isReady reports whether take would succeed for size.
func (s *spare) isReady(size int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ready == size
}

// take renames the ready spare of size bytes to path and reports whether
// there was one. It also lets a failed preparation be tried again, for the
// next file.
func (s *spare) take(size int64, path string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failed = nil
	if s.ready != size {
		return false, nil
	}
	s.ready = 0
	if err := os.Rename(s.path(), path); err != nil {
		return false, fmt.Errorf("storage: rename %s: %w", s.path(), err)
	}
	return true, nil
}

// close stops a preparation under way (its half-written file is removed)
// and waits for it. A ready spare stays for the next opening.
func (s *spare) close() {
	s.mu.Lock()
	if !s.stopped {
		s.stopped = true
		close(s.stop)
	}
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *spare) write(size int64) {
	defer s.wg.Done()
	direct, err := s.fill(size)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.busy = false
	if err == nil {
		s.ready, s.direct = size, direct
	} else if !errors.Is(err, errSpareStopped) {
		s.failed = err
	}
}

var errSpareStopped = errors.New("storage: spare log file stopped")

// errNoDirect: a spare's zeros cannot be written past the page cache here.
var errNoDirect = errors.New("storage: no direct writes")

// openSpareDirect is openDirect; tests replace it to take the other way.
var openSpareDirect = openDirect

// fill writes size zeros to the spare's temporary file, fsyncs it and
// renames it to log.spare. That rename need not be durable: a crash leaves
// the temporary name, which the next opening removes. It gives up when the
// file system would be left with less than another file's room: the log's
// own file must still find blocks to grow into.
//
// The zeros go past the page cache (O_DIRECT) where the file system takes
// that: copying 64 MiB into the cache and writing it back took 20-47 ms of
// CPU per file, written directly 6-14 ms (a test program, 2 cores), and a
// busy peer fills a file every few seconds. Elsewhere they go through the
// cache.
func (s *spare) fill(size int64) (direct bool, err error) {
	tmp := s.path() + tmpSuffix
	// The spare must not take the blocks the log's own file still needs.
	if free, ok := freeBytes(s.dir); ok && free < 2*size {
		return false, fmt.Errorf("storage: no room for %s: %d bytes free", s.path(), free)
	}
	direct = true
	err = s.writeZeros(tmp, size, true)
	if errors.Is(err, errNoDirect) {
		direct = false
		err = s.writeZeros(tmp, size, false)
	}
	if err == nil {
		if err = os.Rename(tmp, s.path()); err != nil {
			err = fmt.Errorf("storage: rename %s: %w", tmp, err)
		}
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return direct, err
}

// writeZeros creates path with size zeros, a chunk at a time, and fsyncs
// it. Through the page cache each chunk is handed to the disk before the
// next (so the final fsync does not flush 64 MiB at once while the peers'
// own syncs wait behind it); a direct write is on the disk when it returns.
// With direct it returns errNoDirect where the file system or size does not
// allow one.
func (s *spare) writeZeros(path string, size int64, direct bool) (err error) {
	var f *os.File
	if direct {
		if size%directAlign != 0 {
			return errNoDirect
		}
		f, err = openSpareDirect(path)
	} else if f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644); err != nil {
		err = fmt.Errorf("storage: create %s: %w", path, err)
	}
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("storage: close %s: %w", path, cerr)
		}
	}()
	zeros := alignedZeros(int(min(size, spareChunk)))
	for off := int64(0); off < size; off += int64(len(zeros)) {
		select {
		case <-s.stop:
			return errSpareStopped
		default:
		}
		n := min(int64(len(zeros)), size-off)
		if _, err := f.WriteAt(zeros[:n], off); err != nil {
			if direct && (errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.EOPNOTSUPP)) {
				return fmt.Errorf("%w: %w", errNoDirect, err)
			}
			return fmt.Errorf("storage: write %s: %w", path, err)
		}
		if !direct {
			if err := writeBack(f, off, n); err != nil {
				return err
			}
		}
	}
	return syncData(f)
}

// alignedZeros is n zero bytes starting at a multiple of directAlign, as a
// direct write needs.
func alignedZeros(n int) []byte {
	b := make([]byte, n+directAlign)
	skip := (directAlign - int(uintptr(unsafe.Pointer(&b[0]))%directAlign)) % directAlign
	return b[skip : skip+n]
}

// removeIfExists deletes path; a missing file is no error.
func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: remove %s: %w", path, err)
	}
	return nil
}
