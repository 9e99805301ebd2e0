package storage

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"

	"zablab/zab/core"
)

// Log file format, version 2 (version 1 lacked the incarnation and is
// refused with an error naming the file). All integers are little-endian.
//
//	file   = header record*  zero*
//	header = magic "ZLOG" (4 bytes) | version uint32
//	record = length uint32 | crc uint32 | payload (length bytes)
//	payload = zxid uint64 | timestamp int64 | proposer uint64 |
//	          incarnation uint64 | seq uint64 | data
//
// crc is the CRC32C of the payload. A payload is at least 40 bytes, so a
// zero length can only be preallocated space: the reader stops there.
const (
	logMagic       = "ZLOG"
	logVersion     = 2
	logHeaderSize  = 8
	recHeaderSize  = 8
	recFixedSize   = 40
	maxPayloadSize = math.MaxUint32
)

// logHeader returns the bytes every version-1 log file starts with.
func logHeader() []byte {
	return binary.LittleEndian.AppendUint32([]byte(logMagic), logVersion)
}

// appendRecord appends e's record to buf.
func appendRecord(buf []byte, e core.Entry) []byte {
	n := recFixedSize + len(e.Data)
	start := len(buf)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(n))
	buf = binary.LittleEndian.AppendUint32(buf, 0) // crc, filled in below
	buf = binary.LittleEndian.AppendUint64(buf, uint64(e.Zxid))
	buf = binary.LittleEndian.AppendUint64(buf, uint64(e.Timestamp))
	buf = binary.LittleEndian.AppendUint64(buf, e.Proposer)
	buf = binary.LittleEndian.AppendUint64(buf, e.Incarnation)
	buf = binary.LittleEndian.AppendUint64(buf, e.Seq)
	buf = append(buf, e.Data...)
	payload := buf[start+recHeaderSize:]
	binary.LittleEndian.PutUint32(buf[start+4:], crc32.Checksum(payload, castagnoli))
	return buf
}

// checkLogHeader classifies a file's first bytes. ok: a current header.
// torn: what a crash during the file's creation leaves (a prefix of the
// header, zeros, or nothing). Otherwise err says what is wrong.
func checkLogHeader(hdr []byte) (ok, torn bool, err error) {
	want := logHeader()
	if bytes.Equal(hdr, want) {
		return true, false, nil
	}
	// Version 0 does not exist: it is a header whose second half is missing.
	if len(hdr) == logHeaderSize && string(hdr[:4]) == logMagic {
		if v := binary.LittleEndian.Uint32(hdr[4:]); v != 0 {
			return false, false, fmt.Errorf("unsupported log format version %d (this build writes %d; move the old data folder away)", v, logVersion)
		}
	}
	for i, b := range hdr {
		if b != 0 && b != want[i] {
			return false, false, errors.New("not a log file (bad magic)")
		}
	}
	return false, true, nil
}

// recordReader reads the records of one log file in order.
type recordReader struct {
	r   *bufio.Reader
	off int64 // offset of the next record in the file
	end int64 // offset where readable bytes end
}

func newRecordReader(f *os.File, end int64) *recordReader {
	sr := io.NewSectionReader(f, logHeaderSize, max(0, end-logHeaderSize))
	return &recordReader{r: bufio.NewReaderSize(sr, 64<<10), off: logHeaderSize, end: end}
}

// errStop ends a scan without a complaint: the readable bytes are used up,
// too few are left for a record header, or preallocated zeros begin. Whether
// the rest of the file is really empty is the caller's question.
var errStop = errors.New("end of records")

// next returns the next record's entry. It returns errStop at the end of the
// records, an error describing the damage for a bad record (rr.off then
// still names the bad record's offset), or a read error.
func (rr *recordReader) next() (core.Entry, error) {
	if rr.end-rr.off < recHeaderSize {
		return core.Entry{}, errStop
	}
	var hdr [recHeaderSize]byte
	if _, err := io.ReadFull(rr.r, hdr[:]); err != nil {
		return core.Entry{}, err
	}
	n := int64(binary.LittleEndian.Uint32(hdr[:4]))
	sum := binary.LittleEndian.Uint32(hdr[4:])
	switch {
	case n == 0 && sum == 0:
		return core.Entry{}, errStop
	case n < recFixedSize:
		return core.Entry{}, fmt.Errorf("bad record length %d", n)
	case n > rr.end-rr.off-recHeaderSize:
		return core.Entry{}, fmt.Errorf("record of %d bytes runs past the end (%d bytes left): torn write",
			n, rr.end-rr.off-recHeaderSize)
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(rr.r, payload); err != nil {
		return core.Entry{}, err
	}
	if crc32.Checksum(payload, castagnoli) != sum {
		return core.Entry{}, errors.New("checksum mismatch")
	}
	rr.off += recHeaderSize + n
	e := core.Entry{
		Zxid:        core.Zxid(binary.LittleEndian.Uint64(payload[0:])),
		Timestamp:   int64(binary.LittleEndian.Uint64(payload[8:])),
		Proposer:    binary.LittleEndian.Uint64(payload[16:]),
		Incarnation: binary.LittleEndian.Uint64(payload[24:]),
		Seq:         binary.LittleEndian.Uint64(payload[32:]),
	}
	if n > recFixedSize {
		e.Data = payload[recFixedSize:]
	}
	return e, nil
}

// segmentScan is what reading one log file found.
type segmentScan struct {
	count   int       // intact records
	last    core.Zxid // zxid of the last intact record
	end     int64     // offset just after the last intact record
	problem string    // why the records end early; "" for a clean end
}

// scanSegment reads every record of f (size bytes) and checks that zxids
// start at first and increase. visit, if not nil, sees each entry. A damaged
// record or non-zero bytes after the records are reported in problem; only
// read errors and zxid disorder are returned as errors.
func scanSegment(f *os.File, size int64, first core.Zxid, visit func(core.Entry)) (segmentScan, error) {
	rr := newRecordReader(f, size)
	var s segmentScan
	for {
		e, err := rr.next()
		if err != nil {
			s.end = rr.off
			return s, s.finish(f, size, err)
		}
		switch {
		case s.count == 0 && e.Zxid != first:
			return s, fmt.Errorf("%w: %s: offset %d: first zxid %v does not match the file name",
				ErrCorrupt, f.Name(), rr.off, e.Zxid)
		case s.count > 0 && e.Zxid <= s.last:
			return s, fmt.Errorf("%w: %s: offset %d: zxid %v does not follow %v",
				ErrCorrupt, f.Name(), rr.off, e.Zxid, s.last)
		}
		s.count++
		s.last = e.Zxid
		if visit != nil {
			visit(e)
		}
	}
}

// finish classifies the error that ended a scan.
func (s *segmentScan) finish(f *os.File, size int64, err error) error {
	var readErr *os.PathError
	switch {
	case errors.As(err, &readErr):
		return fmt.Errorf("storage: read %s: %w", f.Name(), err)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		// The file shrank while we read it; nobody else should touch it.
		return fmt.Errorf("storage: read %s: %w", f.Name(), err)
	case err != errStop:
		s.problem = err.Error()
		return nil
	}
	junk, jerr := hasNonZero(f, s.end, size)
	if jerr != nil {
		return jerr
	}
	if junk {
		s.problem = "non-zero bytes after the last record: torn write"
	}
	return nil
}
