package storage

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"zablab/zab/core"
)

// Snapshot file format, version 2, little-endian: a 64-byte header, then the
// application's data.
//
//	magic "ZSNP" | version uint32 | zxid uint64 | timestamp int64 |
//	proposer uint64 | incarnation uint64 | seq uint64 |
//	data length uint64 | data crc uint32 | header crc uint32
//
// Both crcs are CRC32C; the header crc covers the 60 bytes before it.
// Version 1 (no proposer, incarnation, seq) is refused as damaged.
const (
	snapPrefix     = "snapshot."
	snapMagic      = "ZSNP"
	snapVersion    = 2
	snapHeaderSize = 64
	defaultKeep    = 3
)

// FileSnapshots keeps snapshots as files "snapshot.<zxid>" in one folder.
// Save writes a temporary file, fsyncs it, renames it into place and fsyncs
// the folder, so a snapshot is either absent or complete and durable. It is
// safe for concurrent use.
type FileSnapshots struct {
	dir  string
	keep int

	tmpSeq atomic.Uint64 // names temporary files apart

	mu      sync.Mutex // held to publish, prune and read; never while data streams
	skipped []string
}

// OpenFileSnapshots opens the snapshot folder dir, creating it if missing,
// and removes temporary files a crash left behind. Save keeps the newest
// keep snapshots (3 if keep <= 0): older ones are the fallback when the
// newest turns out damaged.
func OpenFileSnapshots(dir string, keep int) (*FileSnapshots, error) {
	if keep <= 0 {
		keep = defaultKeep
	}
	if err := makeDir(dir); err != nil {
		return nil, err
	}
	if err := removeTmpFiles(dir, snapPrefix); err != nil {
		return nil, err
	}
	return &FileSnapshots{dir: dir, keep: keep}, nil
}

// Save stores snap durably.
func (s *FileSnapshots) Save(snap core.Snapshot) error {
	return s.SaveFrom(snap.Meta, func(w io.Writer) error {
		_, err := w.Write(snap.Data)
		return err
	})
}

// SaveFrom stores a snapshot whose data write produces, streaming it to
// disk, so a large application state need not be held in memory twice. If
// write fails, nothing is saved and its error is returned.
//
// The new snapshot becomes the newest: snapshots above meta.Zxid are removed,
// because the core saves a lower one only when it abandons the history they
// describe (Persist then truncates the log after meta.Zxid). Of the rest, the
// newest keep stay.
//
// The data streams to a temporary file of its own without the lock, so
// Latest (which a leader calls on its protocol goroutine to SNAP a
// follower) never waits for a large state being written: it returns the
// newest completed snapshot. Only the rename and the pruning hold the lock.
func (s *FileSnapshots) SaveFrom(meta core.SnapshotMeta, write func(io.Writer) error) error {
	name := zxidName(snapPrefix, meta.Zxid)
	// Unique, because a SNAP install may Save the same zxid meanwhile.
	tmp := filepath.Join(s.dir, fmt.Sprintf("%s.%d%s", name, s.tmpSeq.Add(1), tmpSuffix))
	if err := writeTmp(tmp, func(f *os.File) error { return writeSnapshot(f, meta, write) }); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := publishTmp(s.dir, tmp, name); err != nil {
		return err
	}
	return s.prune(meta.Zxid)
}

// countingWriter checksums and counts what passes through it.
type countingWriter struct {
	w   io.Writer
	crc hash.Hash32
	n   uint64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.crc.Write(p[:n])
	c.n += uint64(n)
	return n, err
}

// writeSnapshot writes a placeholder header, streams the data, then fills in
// the header once length and checksum are known.
func writeSnapshot(f *os.File, meta core.SnapshotMeta, write func(io.Writer) error) error {
	if _, err := f.Write(make([]byte, snapHeaderSize)); err != nil {
		return fmt.Errorf("storage: write %s: %w", f.Name(), err)
	}
	bw := bufio.NewWriterSize(f, 256<<10)
	cw := &countingWriter{w: bw, crc: crc32.New(castagnoli)}
	if err := write(cw); err != nil {
		return fmt.Errorf("storage: snapshot %v: writing data to %s: %w", meta.Zxid, f.Name(), err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("storage: write %s: %w", f.Name(), err)
	}
	if _, err := f.WriteAt(encodeSnapHeader(meta, cw.n, cw.crc.Sum32()), 0); err != nil {
		return fmt.Errorf("storage: write %s: %w", f.Name(), err)
	}
	return nil
}

func encodeSnapHeader(meta core.SnapshotMeta, n uint64, sum uint32) []byte {
	b := make([]byte, 0, snapHeaderSize)
	b = append(b, snapMagic...)
	b = binary.LittleEndian.AppendUint32(b, snapVersion)
	b = binary.LittleEndian.AppendUint64(b, uint64(meta.Zxid))
	b = binary.LittleEndian.AppendUint64(b, uint64(meta.Timestamp))
	b = binary.LittleEndian.AppendUint64(b, meta.Proposer)
	b = binary.LittleEndian.AppendUint64(b, meta.Incarnation)
	b = binary.LittleEndian.AppendUint64(b, meta.Seq)
	b = binary.LittleEndian.AppendUint64(b, n)
	b = binary.LittleEndian.AppendUint32(b, sum)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// prune removes the snapshots above newest and all but the newest keep of
// the others, then makes the removals durable.
func (s *FileSnapshots) prune(newest core.Zxid) error {
	zs, err := listZxidFiles(s.dir, snapPrefix)
	if err != nil {
		return err
	}
	kept, removed := 0, false
	for i := len(zs) - 1; i >= 0; i-- {
		if zs[i] <= newest && kept < s.keep {
			kept++
			continue
		}
		if err := os.Remove(filepath.Join(s.dir, zxidName(snapPrefix, zs[i]))); err != nil {
			return fmt.Errorf("storage: remove snapshot: %w", err)
		}
		removed = true
	}
	if !removed {
		return nil
	}
	return syncDir(s.dir)
}

// Latest returns the newest snapshot whose checksums verify. Damaged newer
// ones are skipped; Skipped then says which and why, and the runtime should
// log that. With no snapshot file at all it returns ErrNoSnapshot; when
// every one is damaged, an error wrapping ErrCorrupt, because starting from
// the empty state would silently drop what the snapshots held.
func (s *FileSnapshots) Latest() (core.Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.skipped = nil
	zs, err := listZxidFiles(s.dir, snapPrefix)
	if err != nil {
		return core.Snapshot{}, err
	}
	if len(zs) == 0 {
		return core.Snapshot{}, fmt.Errorf("%w in %s", ErrNoSnapshot, s.dir)
	}
	for i := len(zs) - 1; i >= 0; i-- {
		snap, err := readSnapshot(filepath.Join(s.dir, zxidName(snapPrefix, zs[i])), zs[i])
		if err == nil {
			return snap, nil
		}
		if !errors.Is(err, ErrCorrupt) {
			return core.Snapshot{}, err
		}
		s.skipped = append(s.skipped, err.Error())
	}
	return core.Snapshot{}, fmt.Errorf("%w: every snapshot in %s is damaged (%s)", ErrCorrupt, s.dir, strings.Join(s.skipped, "; "))
}

// RemoveBefore removes every snapshot below z and makes the removal
// durable: once the log no longer reaches back to them (after a SNAP
// install, or when log files up to z are removed), restoring from one
// would give a history with a gap, so they must not stay as a fallback.
func (s *FileSnapshots) RemoveBefore(z core.Zxid) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	zs, err := listZxidFiles(s.dir, snapPrefix)
	if err != nil {
		return err
	}
	removed := false
	for _, sz := range zs {
		if sz >= z {
			break
		}
		if err := os.Remove(filepath.Join(s.dir, zxidName(snapPrefix, sz))); err != nil {
			return fmt.Errorf("storage: remove snapshot: %w", err)
		}
		removed = true
	}
	if !removed {
		return nil
	}
	return syncDir(s.dir)
}

// Skipped describes the damaged snapshots the last call to Latest passed
// over, newest first; empty if it used the newest.
func (s *FileSnapshots) Skipped() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.skipped...)
}

// Dir is the folder the snapshots live in.
func (s *FileSnapshots) Dir() string { return s.dir }

// readSnapshot reads and verifies the snapshot file path, named after z.
func readSnapshot(path string, z core.Zxid) (core.Snapshot, error) {
	f, err := os.Open(path)
	if err != nil {
		return core.Snapshot{}, fmt.Errorf("storage: open %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return core.Snapshot{}, fmt.Errorf("storage: stat %s: %w", path, err)
	}
	corrupt := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrCorrupt, path, fmt.Sprintf(format, args...))
	}
	if fi.Size() < snapHeaderSize {
		return core.Snapshot{}, corrupt("%d bytes, shorter than the header", fi.Size())
	}
	hdr := make([]byte, snapHeaderSize)
	if _, err := io.ReadFull(f, hdr); err != nil {
		return core.Snapshot{}, fmt.Errorf("storage: read %s: %w", path, err)
	}
	meta, n, sum, reason := decodeSnapHeader(hdr)
	switch {
	case reason != "":
		return core.Snapshot{}, corrupt("%s", reason)
	case meta.Zxid != z:
		return core.Snapshot{}, corrupt("header zxid %v does not match the file name", meta.Zxid)
	case n != uint64(fi.Size()-snapHeaderSize):
		return core.Snapshot{}, corrupt("header says %d bytes of data, file holds %d", n, fi.Size()-snapHeaderSize)
	}
	snap := core.Snapshot{Meta: meta}
	if n > 0 {
		snap.Data = make([]byte, n)
		if _, err := io.ReadFull(f, snap.Data); err != nil {
			return core.Snapshot{}, fmt.Errorf("storage: read %s: %w", path, err)
		}
	}
	if crc32.Checksum(snap.Data, castagnoli) != sum {
		return core.Snapshot{}, corrupt("data checksum mismatch")
	}
	return snap, nil
}

func decodeSnapHeader(b []byte) (meta core.SnapshotMeta, n uint64, sum uint32, reason string) {
	le := binary.LittleEndian
	switch {
	case string(b[:4]) != snapMagic:
		return meta, 0, 0, "not a snapshot file (bad magic)"
	case le.Uint32(b[4:]) != snapVersion:
		return meta, 0, 0, fmt.Sprintf("unsupported format version %d", le.Uint32(b[4:]))
	case crc32.Checksum(b[:60], castagnoli) != le.Uint32(b[60:]):
		return meta, 0, 0, "header checksum mismatch"
	}
	meta = core.SnapshotMeta{Zxid: core.Zxid(le.Uint64(b[8:])), Timestamp: int64(le.Uint64(b[16:])),
		Proposer: le.Uint64(b[24:]), Incarnation: le.Uint64(b[32:]), Seq: le.Uint64(b[40:])}
	return meta, le.Uint64(b[48:]), le.Uint32(b[56:]), ""
}
