package storage

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"zablab/zab/core"
)

// ErrBadEntry is returned by FileLog.Append for an entry the log cannot hold:
// a zxid not above the log's last one, or data of 4 GiB or more. Both are
// bugs in the caller; nothing of the batch is written.
var ErrBadEntry = errors.New("storage: entry cannot be logged")

const (
	logPrefix            = "log."
	defaultMaxFileBytes  = 64 << 20
	defaultPreallocBytes = 4 << 20
	logBufferSize        = 64 << 10
)

// FileLogOptions tunes a FileLog. The zero value gives the defaults.
type FileLogOptions struct {
	// MaxFileBytes: once a file has grown to this size, the next record
	// starts a new file. Smaller files make RemoveBefore free space sooner.
	// 0 means 64 MiB.
	MaxFileBytes int64
	// PreallocBytes is the step in which a file grows ahead of its records,
	// so that most syncs write data only, not the file size. 0 means 4 MiB;
	// a negative value turns preallocation off.
	PreallocBytes int64
}

func (o FileLogOptions) withDefaults() FileLogOptions {
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = defaultMaxFileBytes
	}
	if o.PreallocBytes == 0 {
		o.PreallocBytes = defaultPreallocBytes
	}
	return o
}

// segment is one log file, named after the zxid of its first record.
type segment struct {
	first core.Zxid
	path  string
}

// FileLog is the durable transaction log: a folder of files "log.<zxid>",
// each holding checksummed records in zxid order. See the package doc for
// the format and the crash guarantees.
//
// Append buffers in memory; Sync writes the buffer and fsyncs once, however
// many entries it holds (group commit). TruncateAfter and RemoveBefore are
// durable when they return. Entries reads what is durable.
//
// Every method is safe for concurrent use. After a write or sync fails the
// log refuses further writes: what reached the disk is then unknown, and
// only reopening (which scans and repairs) can tell.
type FileLog struct {
	dir  string
	opts FileLogOptions

	removing sync.Mutex // held through RemoveBefore
	release  *releaser  // gives removed files' space back (file_release.go)

	mu sync.Mutex
	// segs are the log's files, ascending; every one holds at least one
	// record, and all but the last are durable in full.
	segs []segment
	// f is the last segment, open for writing; nil when segs is empty.
	f      *os.File
	fw     *fileWriter
	w      *bufio.Writer
	off    int64 // end of the last segment's records, buffered ones included
	synced int64 // end of the last segment's durable records (with forceSync=no: written ones)
	// fsynced is the end of what an fsync of the last segment covered;
	// below synced only with forceSync=no, and while useFile has just
	// (re)opened a file (OpenFileLog then fsyncs it at once, syncOpened; a
	// truncation fsyncs and sets it).
	fsynced int64
	alloc   int64     // size of the last segment on disk, preallocation included
	full    bool      // preallocating the last segment met a full disk: it grows by its writes alone
	zeroed  bool      // the last segment came from a spare: written zeros, not fallocated
	fsyncs  int       // fsyncs of the last segment's data since it was opened
	spare   *spare    // the next file, prepared ahead (file_spare.go); nil without preallocation
	last    core.Zxid // zxid of the newest record; meaningless while segs is empty
	buf     []byte    // encoding scratch space

	repaired string
	err      error // sticky write error
	closed   bool
	syncs    int  // data fsyncs issued; tests use it to check group commit
	noFsync  bool // forceSync=no: Sync writes but does not fsync
}

// fileWriter writes at an explicit offset, so the file's own position does
// not matter and preallocated space beyond the records is not skipped.
type fileWriter struct {
	f   *os.File
	off int64
	// zerosTo: the file holds zeros from the records' end up to here (a
	// spare's, or preallocated; recovery cut any torn tail off). A write
	// runs on to the end of its last page with them: where that page is
	// not cached (a spare's zeros skip the cache), the kernel would
	// otherwise read it from the disk first, to keep the part of it the
	// write leaves alone. (After a restart the recovery's scan has read
	// the newest file whole, so its pages are cached.)
	zerosTo int64
}

// pageSize is the page cache's unit: what a write into an uncached page
// must read first unless it covers the whole page.
const pageSize = 4096

func (w *fileWriter) Write(p []byte) (int, error) {
	end := w.off + int64(len(p))
	pad := (pageSize - end%pageSize) % pageSize
	var n int
	var err error
	if pad > 0 && end+pad <= w.zerosTo {
		n, err = writeAtPadded(w.f, p, int(pad), w.off)
	} else {
		n, err = w.f.WriteAt(p, w.off)
	}
	w.off += int64(n)
	if err != nil {
		return n, fmt.Errorf("storage: write %s: %w", w.f.Name(), err)
	}
	return n, nil
}

// OpenFileLog opens the log in dir, creating dir if it is missing. It reads
// and checks every record. Damage at the end of the newest file is what a
// crash during a write leaves: it is cut off, and Repaired says what was
// cut. Damage anywhere else is an error wrapping ErrCorrupt that names the
// file and offset; the log is then left untouched (only files a removal
// had already taken out of it are deleted first).
func OpenFileLog(dir string, opts FileLogOptions) (*FileLog, error) {
	if err := makeDir(dir); err != nil {
		return nil, err
	}
	if err := removeRetired(dir); err != nil {
		return nil, err
	}
	zs, err := listZxidFiles(dir, logPrefix)
	if err != nil {
		return nil, err
	}
	l := &FileLog{dir: dir, opts: opts.withDefaults(), release: newReleaser()}
	if l.opts.PreallocBytes >= 0 {
		l.spare, err = openSpare(dir, l.opts.MaxFileBytes)
	} else {
		err = removeSpares(dir) // such a log never takes one
	}
	if err != nil {
		return nil, err
	}
	var notes []string
	for i, z := range zs {
		seg := segment{first: z, path: filepath.Join(dir, zxidName(logPrefix, z))}
		note, err := l.load(seg, i == len(zs)-1)
		if err != nil {
			_ = l.closeFile() // the load error is the one to report
			return nil, err
		}
		if note != "" {
			notes = append(notes, note)
		}
	}
	l.repaired = strings.Join(notes, "; ")
	if l.f == nil && len(l.segs) > 0 {
		// The newest file was dropped as torn; the one before takes over.
		if err := l.openLast(); err != nil {
			return nil, err
		}
	}
	if err := l.syncOpened(); err != nil {
		_ = l.closeFile()
		return nil, err
	}
	return l, nil
}

// syncOpened fsyncs the newest file once at opening. A process killed
// between a write and its fsync leaves the written records in the page
// cache, where the scan reads them like durable ones; Entries returns them
// and the peer vouches for them at once, without appending anything (a
// follower level with its new leader stores only its epoch before its
// ACKLD, a new leader counts its own log). Older files were fsynced in full
// before the next one was created. The folder is fsynced first for the
// same reason: the files a killed process created, renamed or removed (a
// rotation, the spare, a truncation's removals) are in the page cache too,
// and after a power loss a removed file could come back.
func (l *FileLog) syncOpened() error {
	if err := syncOpenedDir(l.dir); err != nil {
		return err
	}
	if l.f == nil {
		return nil
	}
	if err := syncData(l.f); err != nil {
		return err
	}
	l.fsynced = l.off
	l.syncs++
	return nil
}

// openLast opens the last segment, whose records end at l.off, for writing.
func (l *FileLog) openLast() error {
	path := l.segs[len(l.segs)-1].path
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("storage: open %s: %w", path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("storage: stat %s: %w", path, err)
	}
	l.useFile(f, l.off, fi.Size())
	return nil
}

// load checks one file and adds it to l.segs. The last file stays open for
// appending; a torn tail in it is cut off and described in the note.
func (l *FileLog) load(seg segment, isLast bool) (note string, err error) {
	flag := os.O_RDONLY
	if isLast {
		flag = os.O_RDWR
	}
	f, err := os.OpenFile(seg.path, flag, 0)
	if err != nil {
		return "", fmt.Errorf("storage: open %s: %w", seg.path, err)
	}
	keep := false
	defer func() {
		if !keep {
			f.Close()
		}
	}()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("storage: stat %s: %w", seg.path, err)
	}
	size := fi.Size()
	hdr := make([]byte, min(size, logHeaderSize))
	if _, err := io.ReadFull(f, hdr); err != nil {
		return "", fmt.Errorf("storage: read %s: %w", seg.path, err)
	}
	ok, torn, herr := checkLogHeader(hdr)
	if !ok {
		if !torn || !isLast {
			return "", headerError(seg.path, herr)
		}
		return l.dropTornFile(f, seg.path, size)
	}
	s, err := scanSegment(f, size, seg.first, nil)
	if err != nil {
		return "", err
	}
	if len(l.segs) > 0 && s.count > 0 && seg.first <= l.last {
		return "", fmt.Errorf("%w: %s: first zxid %v does not follow %v in the previous file",
			ErrCorrupt, seg.path, seg.first, l.last)
	}
	if s.problem != "" || s.count == 0 {
		if !isLast {
			return "", fmt.Errorf("%w: %s: offset %d: %s", ErrCorrupt, seg.path, s.end, orNoRecords(s.problem))
		}
		if note, err = l.cutTail(f, seg.path, size, s); err != nil || s.count == 0 {
			return note, err
		}
		size = s.end
	}
	l.segs = append(l.segs, seg)
	l.last, l.off = s.last, s.end
	if isLast {
		keep = true
		l.useFile(f, s.end, size)
	}
	return note, nil
}

func headerError(path string, err error) error {
	if err == nil {
		err = errors.New("file header missing")
	}
	return fmt.Errorf("%w: %s: offset 0: %v", ErrCorrupt, path, err)
}

func orNoRecords(problem string) string {
	if problem == "" {
		return "file holds no records"
	}
	return problem
}

// dropTornFile removes a newest file whose header never fully reached the
// disk: a crash hit just after the file was created, before any record in
// it was synced.
func (l *FileLog) dropTornFile(f *os.File, path string, size int64) (string, error) {
	junk, err := hasNonZero(f, 0, size)
	if err != nil {
		return "", err
	}
	if err := removeDurably(l.dir, path); err != nil {
		return "", err
	}
	if !junk {
		return "", nil // an empty file: nothing was lost, nothing to report
	}
	return fmt.Sprintf("removed %s: %d bytes with a torn file header", path, size), nil
}

// cutTail truncates the newest file after its last intact record, or
// removes it if no record is intact.
func (l *FileLog) cutTail(f *os.File, path string, size int64, s segmentScan) (string, error) {
	if s.count == 0 {
		if err := removeDurably(l.dir, path); err != nil {
			return "", err
		}
		if s.problem == "" {
			return "", nil // header only: the crash came before the first record
		}
		return fmt.Sprintf("removed %s: its first record at offset %d is damaged (%s); %d bytes dropped",
			path, s.end, s.problem, size-logHeaderSize), nil
	}
	if err := f.Truncate(s.end); err != nil {
		return "", fmt.Errorf("storage: truncate %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return "", fmt.Errorf("storage: sync %s: %w", path, err)
	}
	return fmt.Sprintf("cut %s at offset %d after %d intact records (last zxid %v): %s; %d bytes dropped",
		path, s.end, s.count, s.last, s.problem, size-s.end), nil
}

// removeDurably deletes path and makes the deletion durable.
func removeDurably(dir, path string) error {
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("storage: remove log file: %w", err)
	}
	return syncDir(dir)
}

// useFile makes f, whose records end at end and which is size bytes long,
// the file that Append writes to.
func (l *FileLog) useFile(f *os.File, end, size int64) {
	l.f = f
	l.fw = &fileWriter{f: f, off: end, zerosTo: size}
	if l.w == nil {
		l.w = bufio.NewWriterSize(l.fw, logBufferSize)
	} else {
		l.w.Reset(l.fw)
	}
	l.off, l.synced, l.alloc = end, end, size
	l.fsynced = 0
	l.zeroed, l.fsyncs, l.full = false, 0, false
}

// closeFile closes the file being appended to, dropping unwritten buffers.
func (l *FileLog) closeFile() error {
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f, l.fw = nil, nil
	if err != nil {
		return fmt.Errorf("storage: close log file: %w", err)
	}
	return nil
}

// Repaired describes what OpenFileLog cut off a torn tail, or is empty when
// the log was intact. The runtime should log it as a warning: it is the only
// trace of the repair.
func (l *FileLog) Repaired() string { return l.repaired }

// Dir is the folder the log lives in.
func (l *FileLog) Dir() string { return l.dir }

// usable returns why the log refuses writes, or nil.
func (l *FileLog) usable() error {
	if l.closed {
		return fmt.Errorf("%w: log %s", ErrClosed, l.dir)
	}
	if l.err != nil {
		return fmt.Errorf("storage: log %s failed earlier: %w", l.dir, l.err)
	}
	return nil
}

// Entries returns the durable entries above after, in zxid order.
func (l *FileLog) Entries(after core.Zxid) ([]core.Entry, error) {
	return l.EntriesBetween(after, math.MaxUint64)
}

// EntriesBetween returns the durable entries in (after, upto], in zxid
// order, reading only the files that can hold them.
func (l *FileLog) EntriesBetween(after, upto core.Zxid) ([]core.Entry, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, fmt.Errorf("%w: log %s", ErrClosed, l.dir)
	}
	var out []core.Entry
	for i, seg := range l.segs {
		if seg.first > upto {
			break
		}
		limit := int64(-1) // whole file: all but the last segment are durable
		if i+1 < len(l.segs) {
			if l.segs[i+1].first-1 <= after {
				continue // every record here is below the next file's first
			}
		} else {
			limit = l.synced
		}
		err := readSegment(seg, limit, func(e core.Entry) {
			if e.Zxid > after && e.Zxid <= upto {
				out = append(out, e)
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readSegment passes every record of seg up to offset limit (-1: the whole
// file) to visit.
func readSegment(seg segment, limit int64, visit func(core.Entry)) error {
	f, err := os.Open(seg.path)
	if err != nil {
		return fmt.Errorf("storage: open %s: %w", seg.path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("storage: stat %s: %w", seg.path, err)
	}
	end := fi.Size()
	if limit >= 0 {
		end = min(end, limit)
	}
	s, err := scanSegment(f, end, seg.first, visit)
	if err == nil && s.problem != "" {
		err = fmt.Errorf("%w: %s: offset %d: %s", ErrCorrupt, seg.path, s.end, s.problem)
	}
	return err
}

// Close makes buffered entries durable and releases the file. Files
// RemoveBefore took out and not yet deleted are deleted now, without the
// pauses. Later calls to any method but Close return ErrClosed.
func (l *FileLog) Close() error {
	l.removing.Lock() // a RemoveBefore under way finishes first
	defer l.removing.Unlock()
	rerr := l.release.stop()
	if l.spare != nil {
		l.spare.close()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	var err error
	if l.err == nil {
		err = l.syncFile(true) // also with forceSync=no: a clean stop leaves all on disk
	}
	if cerr := l.closeFile(); err == nil {
		err = cerr
	}
	return errors.Join(err, rerr)
}
