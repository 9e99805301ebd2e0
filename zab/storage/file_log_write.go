package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"zablab/zab/core"
)

// Append buffers es at the end of the log; Sync makes them durable. Zxids
// must increase, also across calls. A batch with a bad entry is refused
// whole, with an error wrapping ErrBadEntry.
func (l *FileLog) Append(es []core.Entry) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.usable(); err != nil {
		return err
	}
	if err := l.checkOrder(es); err != nil {
		return err
	}
	for _, e := range es {
		if err := l.appendOne(e); err != nil {
			l.err = err
			return err
		}
	}
	return nil
}

// checkOrder refuses a batch that would break the log's zxid order: file
// names, RemoveBefore and TruncateAfter rely on it.
func (l *FileLog) checkOrder(es []core.Entry) error {
	prev, have := l.last, len(l.segs) > 0
	for _, e := range es {
		if have && e.Zxid <= prev {
			return fmt.Errorf("%w: zxid %v does not follow %v in %s", ErrBadEntry, e.Zxid, prev, l.dir)
		}
		if len(e.Data) > maxPayloadSize-recFixedSize {
			return fmt.Errorf("%w: zxid %v: %d bytes of data is too much for one record", ErrBadEntry, e.Zxid, len(e.Data))
		}
		prev, have = e.Zxid, true
	}
	return nil
}

func (l *FileLog) appendOne(e core.Entry) error {
	if l.f == nil || l.off >= l.opts.MaxFileBytes || l.leaveForSpare() {
		if err := l.rotate(e.Zxid); err != nil {
			return err
		}
	}
	l.buf = appendRecord(l.buf[:0], e)
	if err := l.reserve(l.off + int64(len(l.buf))); err != nil {
		return err
	}
	if _, err := l.w.Write(l.buf); err != nil {
		return err
	}
	l.off += int64(len(l.buf))
	l.last = e.Zxid
	return nil
}

// prepareSpare starts writing the next file once this one is half full, or
// holds spareEarly bytes without being zeroed itself, if its fsyncs were
// small (file_spare.go says why).
func (l *FileLog) prepareSpare() {
	if l.spare == nil || l.noFsync || l.off < l.opts.MaxFileBytes/2 && (l.zeroed || l.off < spareEarly) {
		return
	}
	if l.fsyncs == 0 || (l.off-logHeaderSize)/int64(l.fsyncs) > spareSyncBytes {
		return
	}
	l.spare.want(l.opts.MaxFileBytes)
}

// leaveForSpare: the file was fallocated, holds spareEarly bytes, and a
// zeroed one is ready to take over.
func (l *FileLog) leaveForSpare() bool {
	return l.spare != nil && !l.zeroed && l.off >= spareEarly && l.spare.isReady(l.opts.MaxFileBytes)
}

// rotate starts a new file whose first record will be first.
func (l *FileLog) rotate(first core.Zxid) error {
	if l.f != nil {
		// Recovery repairs only the newest file, so an older one must be
		// durable in full before a newer one can hold a record: a hole in
		// an older file would open as a log with a gap. So this fsyncs
		// also with forceSync=no.
		if err := l.syncFile(true); err != nil {
			return err
		}
		// Give back the preallocated space; a crash before this is durable
		// only leaves zeros, which readers skip.
		if err := l.f.Truncate(l.off); err != nil {
			return fmt.Errorf("storage: truncate %s: %w", l.f.Name(), err)
		}
		if err := l.closeFile(); err != nil {
			return err
		}
	}
	path := filepath.Join(l.dir, zxidName(logPrefix, first))
	f, size, err := l.newFile(path)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(logHeader(), 0); err != nil {
		f.Close()
		return fmt.Errorf("storage: write %s: %w", path, err)
	}
	// The file's name must be durable before its records can be; Sync
	// fsyncs the file only.
	if err := syncDir(l.dir); err != nil {
		f.Close()
		return err
	}
	l.segs = append(l.segs, segment{first: first, path: path})
	l.useFile(f, logHeaderSize, max(size, logHeaderSize))
	l.zeroed = size > 0
	l.synced = 0 // not even the header is durable yet (useFile zeroed fsynced)
	return nil
}

// newFile creates the log file path: the spare renamed, with its size, if
// one is ready, else an empty new file (size 0).
func (l *FileLog) newFile(path string) (*os.File, int64, error) {
	if l.spare != nil {
		if ok, err := l.spare.take(l.opts.MaxFileBytes, path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, 0, err
		} else if ok {
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				return nil, 0, fmt.Errorf("storage: open %s: %w", path, err)
			}
			return f, l.opts.MaxFileBytes, nil
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, 0, fmt.Errorf("storage: create log file: %w", err)
	}
	return f, 0, nil
}

// preallocateFile is preallocate; tests replace it to fill the disk.
var preallocateFile = preallocate

// reserve makes sure the file is allocated up to offset need.
func (l *FileLog) reserve(need int64) error {
	if l.opts.PreallocBytes < 0 || l.full || need <= l.alloc {
		return nil
	}
	// Grow in steps, but not far past MaxFileBytes: the file stops growing
	// there and rotation would give the excess back at once.
	target := max(need, min(l.alloc+l.opts.PreallocBytes, l.opts.MaxFileBytes))
	if err := preallocateFile(l.f, l.alloc, target-l.alloc); noRoom(err) {
		// Preallocation only makes syncs cheaper: the records themselves
		// may still fit, and if not, their write says so. The next file
		// tries again; this one does not, or every append on a full disk
		// would pay a failing fallocate.
		l.full = true
		return nil
	} else if err != nil {
		return err
	}
	l.alloc = target
	return nil
}

// noRoom: err says the file system, or the user's quota on it, is full.
func noRoom(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// Sync makes every appended entry durable with a single fsync.
func (l *FileLog) Sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.usable(); err != nil {
		return err
	}
	if err := l.syncFile(!l.noFsync); err != nil {
		l.err = err
		return err
	}
	l.prepareSpare()
	return nil
}

// syncFile writes the buffer and, with fsync, fsyncs what of the file is
// not yet: with forceSync=no, Sync leaves that to rotate and Close.
func (l *FileLog) syncFile(fsync bool) error {
	if l.f == nil || l.synced == l.off && (!fsync || l.fsynced == l.off) {
		return nil
	}
	if err := l.w.Flush(); err != nil {
		return err
	}
	if fsync {
		if err := syncData(l.f); err != nil {
			return err
		}
		l.fsynced = l.off
		l.syncs++
		l.fsyncs++
	}
	l.synced = l.off
	return nil
}

// Fsyncs is the number of fsyncs of log files' data since the log was
// opened: the newest file's at opening, Sync's (one per call with
// something new), and those when a file fills up and at Close (with
// forceSync=no, only those). Truncations' own fsyncs are not counted.
func (l *FileLog) Fsyncs() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.syncs
}

// SetForceSync turns the fsync of Sync off (false) or back on, as
// ZooKeeper's forceSync=no: an entry Sync returned for then survives a
// crash of the process (it is in the kernel's page cache) but not one of
// the machine or its power. For measuring what the disk costs and for
// machines whose disk is not what is tested; never for data that matters.
// A file is still fsynced in full before the next one starts (so a lost
// tail is the only damage a machine crash can leave, as recovery
// expects), and at Close; truncations and removals stay durable.
func (l *FileLog) SetForceSync(on bool) {
	l.mu.Lock()
	l.noFsync = !on
	l.mu.Unlock()
}

// TruncateAfter drops every entry above z. Unlike Append it is durable when
// it returns: it is rare (a follower dropping proposals a new leader does not
// have), and doing it at once means no later crash can resurrect the
// dropped entries beneath newer ones.
func (l *FileLog) TruncateAfter(z core.Zxid) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.usable(); err != nil {
		return err
	}
	if len(l.segs) == 0 || z >= l.last {
		return nil
	}
	if err := l.truncateLocked(z); err != nil {
		l.err = err
		return err
	}
	return nil
}

func (l *FileLog) truncateLocked(z core.Zxid) error {
	// Buffered records go to the file first, so the cut point can be found
	// by reading it.
	if err := l.w.Flush(); err != nil {
		return err
	}
	// Newest file first, each removal durable before the next: a crash in
	// between leaves a prefix of the old log, never one with a hole.
	for len(l.segs) > 0 && l.segs[len(l.segs)-1].first > z {
		if err := l.closeFile(); err != nil {
			return err
		}
		if err := removeDurably(l.dir, l.segs[len(l.segs)-1].path); err != nil {
			return err
		}
		l.segs = l.segs[:len(l.segs)-1]
	}
	if len(l.segs) == 0 {
		return nil
	}
	seg := l.segs[len(l.segs)-1]
	if l.f == nil {
		if err := l.openLast(); err != nil { // l.off is refreshed by cutAfter
			return err
		}
	}
	return l.cutAfter(seg, z)
}

// cutAfter truncates the open last segment after its last record <= z.
func (l *FileLog) cutAfter(seg segment, z core.Zxid) error {
	cut, last := int64(logHeaderSize), core.Zxid(0)
	err := readSegment(seg, -1, func(e core.Entry) {
		if e.Zxid <= z {
			cut += recHeaderSize + recFixedSize + int64(len(e.Data))
			last = e.Zxid
		}
	})
	if err != nil {
		return err
	}
	if err := l.f.Truncate(cut); err != nil {
		return fmt.Errorf("storage: truncate %s: %w", seg.path, err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("storage: sync %s: %w", seg.path, err)
	}
	l.useFile(l.f, cut, cut)
	l.fsynced = cut // the Sync above covered the whole file
	l.last = last
	return nil
}

// RemoveBefore deletes the log files whose entries are all at or below z,
// typically z is the newest snapshot's zxid. The file holding z itself and
// the newest file stay, so Entries(z) is unchanged. The files are out of
// the log, durably, when RemoveBefore returns; their space is given back
// in the background (file_release.go says why).
func (l *FileLog) RemoveBefore(z core.Zxid) error {
	// One removal at a time: a second must not return before the files the
	// first took out are durably out.
	l.removing.Lock()
	defer l.removing.Unlock()
	gone, err := l.detachBefore(z)
	if err != nil || len(gone) == 0 {
		return err
	}
	// Outside l.mu: appends and syncs go on meanwhile. The files are no
	// longer in segs, so no reader opens them.
	paths := make([]string, len(gone))
	for i, seg := range gone {
		paths[i] = seg.path
	}
	retired, durable, err := retire(l.dir, paths)
	if durable {
		l.release.add(retired)
	} // else the renamed files wait for the next opening: whole, in or out of the log
	if err != nil {
		// The files not renamed are whole log files still: back into the
		// log, so a later RemoveBefore tries them again.
		l.reattach(gone[len(retired):])
	}
	return err
}

// reattach puts segments below every other back at the front of the log.
func (l *FileLog) reattach(segs []segment) {
	if len(segs) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.segs = append(slices.Clone(segs), l.segs...)
}

// detachBefore takes the files wholly below z out of the log.
func (l *FileLog) detachBefore(z core.Zxid) ([]segment, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.usable(); err != nil {
		return nil, err
	}
	n := 0
	for n+1 < len(l.segs) && l.segs[n+1].first <= z {
		n++
	}
	gone := slices.Clone(l.segs[:n])
	l.segs = append(l.segs[:0], l.segs[n:]...)
	return gone, nil
}
