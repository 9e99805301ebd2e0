package transport

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"zablab/zab/core"
)

// Version is the wire format of a message payload and of the handshake.
// A peer rejects anything else, so a mixed ensemble fails loudly at the
// handshake instead of misreading messages.
const Version = 2

// MaxFrame is the default and largest payload a frame may carry: a SNAP
// carries the whole application state, so the limit is generous, but a
// length header above it is garbage or an attack and must not make the
// reader allocate.
const MaxFrame = 256 << 20

// headerLen is the frame's length prefix: 4 bytes, big-endian, counting the
// payload only.
const headerLen = 4

// Errors of the codec. They are wrapped with %w and a description of what
// was wrong, so test with errors.Is.
var (
	ErrMalformed = errors.New("transport: malformed frame")
	ErrTooLarge  = errors.New("transport: frame too large")
	ErrVersion   = errors.New("transport: unsupported version")
)

// Bits of the flags byte. Unknown bits are rejected so that a future
// field cannot be silently ignored by an old peer.
const (
	flagCounted byte = 1 << iota
	flagNonVoting
	flagEstablished
	flagActive
	flagSnapshot // a Snapshot follows the fixed fields
	flagEntries  // an entry count and the Entries follow
	flagsKnown   = flagCounted | flagNonVoting | flagEstablished | flagActive | flagSnapshot | flagEntries
)

// minEntryLen is the smallest encoding of an Entry (six one-byte
// varints); the decoder uses it to refuse entry counts the remaining bytes
// cannot hold before it allocates.
const minEntryLen = 6

// AppendMessage appends m as one frame to dst and returns the extended
// slice. The payload is
//
//	version type flags
//	From To Session Round Epoch           uvarints
//	State                                 byte
//	Vote.Leader Vote.Epoch Vote.Zxid      uvarints
//	AcceptedEpoch CurrentEpoch LastZxid   uvarints
//	Mode                                  byte
//	Zxid Commit Seq ReqSeq                uvarints
//	[Snapshot: Zxid uvarint, Timestamp varint, Proposer Incarnation Seq
//	 uvarints, Data]                                         if flagSnapshot
//	[count uvarint, count × (Zxid uvarint, Timestamp varint,
//	 Proposer Incarnation Seq uvarints, Data)]               if flagEntries
//
// where Data is a uvarint length and the bytes. Most fields of most
// messages are zero, which a varint spends one byte on, so a PING or an
// ACK is about 25 bytes. AppendMessage does not enforce MaxFrame: the
// caller checks the size (see WriteMessage) because only it knows what to
// do with a message that is too big.
func AppendMessage(dst []byte, m *core.Message) []byte {
	dst = slices.Grow(dst, sizeBound(m))
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0, Version, byte(m.Type), flagsOf(m))
	for _, v := range [...]uint64{m.From, m.To, m.Session, m.Round, uint64(m.Epoch)} {
		dst = binary.AppendUvarint(dst, v)
	}
	dst = append(dst, byte(m.State))
	for _, v := range [...]uint64{m.Vote.Leader, uint64(m.Vote.Epoch), uint64(m.Vote.Zxid),
		uint64(m.AcceptedEpoch), uint64(m.CurrentEpoch), uint64(m.LastZxid)} {
		dst = binary.AppendUvarint(dst, v)
	}
	dst = append(dst, byte(m.Mode))
	for _, v := range [...]uint64{uint64(m.Zxid), uint64(m.Commit), m.Seq, m.ReqSeq} {
		dst = binary.AppendUvarint(dst, v)
	}
	if s := m.Snapshot; s != nil {
		dst = binary.AppendUvarint(dst, uint64(s.Meta.Zxid))
		dst = binary.AppendVarint(dst, s.Meta.Timestamp)
		dst = binary.AppendUvarint(dst, s.Meta.Proposer)
		dst = binary.AppendUvarint(dst, s.Meta.Incarnation)
		dst = binary.AppendUvarint(dst, s.Meta.Seq)
		dst = appendBytes(dst, s.Data)
	}
	if len(m.Entries) > 0 {
		dst = binary.AppendUvarint(dst, uint64(len(m.Entries)))
		for i := range m.Entries {
			e := &m.Entries[i]
			dst = binary.AppendUvarint(dst, uint64(e.Zxid))
			dst = binary.AppendVarint(dst, e.Timestamp)
			dst = binary.AppendUvarint(dst, e.Proposer)
			dst = binary.AppendUvarint(dst, e.Incarnation)
			dst = binary.AppendUvarint(dst, e.Seq)
			dst = appendBytes(dst, e.Data)
		}
	}
	// A payload above 4 GiB cannot be framed; senders refuse anything above
	// MaxFrame long before that, so truncating the header here is harmless.
	binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start-headerLen))
	return dst
}

func flagsOf(m *core.Message) byte {
	var f byte
	for _, b := range [...]struct {
		on   bool
		flag byte
	}{
		{m.Counted, flagCounted}, {m.NonVoting, flagNonVoting}, {m.Established, flagEstablished},
		{m.Active, flagActive}, {m.Snapshot != nil, flagSnapshot}, {len(m.Entries) > 0, flagEntries},
	} {
		if b.on {
			f |= b.flag
		}
	}
	return f
}

// sizeBound is an upper bound of m's frame, so that encoding a large SNAP
// or PROPOSE grows the buffer once instead of copying it log(n) times.
func sizeBound(m *core.Message) int {
	n := headerLen + 3 + 2 + 15*binary.MaxVarintLen64
	if m.Snapshot != nil {
		n += 6*binary.MaxVarintLen64 + len(m.Snapshot.Data)
	}
	n += binary.MaxVarintLen64
	for i := range m.Entries {
		n += 6*binary.MaxVarintLen64 + len(m.Entries[i].Data)
	}
	return n
}

func appendBytes(dst, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

// DecodeMessage decodes exactly one frame, as AppendMessage writes it and
// ReadFrame returns it. It never panics; it rejects an unknown version
// (ErrVersion), a length above MaxFrame (ErrTooLarge), and anything else
// that is not a well-formed message, including bytes after it
// (ErrMalformed). The Data slices of the result alias b (capped, so an
// append cannot overwrite a neighbour): a snapshot of hundreds of MiB is
// not copied again, and the caller must not reuse b.
func DecodeMessage(b []byte) (core.Message, error) {
	if len(b) < headerLen {
		return core.Message{}, fmt.Errorf("%w: %d bytes, shorter than the %d-byte length header", ErrMalformed, len(b), headerLen)
	}
	n := uint64(binary.BigEndian.Uint32(b))
	if n > MaxFrame {
		return core.Message{}, fmt.Errorf("%w: length %d exceeds the maximum %d", ErrTooLarge, n, MaxFrame)
	}
	if have := uint64(len(b) - headerLen); n != have {
		if n > have {
			return core.Message{}, fmt.Errorf("%w: length %d exceeds the %d bytes present", ErrMalformed, n, have)
		}
		return core.Message{}, fmt.Errorf("%w: %d bytes of trailing garbage after the frame", ErrMalformed, have-n)
	}
	return decodePayload(b[headerLen:])
}

func decodePayload(p []byte) (core.Message, error) {
	if len(p) < 3 {
		return core.Message{}, fmt.Errorf("%w: payload of %d bytes, shorter than version, type and flags", ErrMalformed, len(p))
	}
	if p[0] != Version {
		return core.Message{}, fmt.Errorf("%w: message version %d, want %d", ErrVersion, p[0], Version)
	}
	m := core.Message{Type: core.MsgType(p[1])}
	if m.Type < core.MsgVote || m.Type > core.MsgSyncReply {
		return core.Message{}, fmt.Errorf("%w: unknown message type %d", ErrMalformed, p[1])
	}
	flags := p[2]
	if flags&^flagsKnown != 0 {
		return core.Message{}, fmt.Errorf("%w: unknown flag bits %#x", ErrMalformed, flags&^flagsKnown)
	}
	m.Counted = flags&flagCounted != 0
	m.NonVoting = flags&flagNonVoting != 0
	m.Established = flags&flagEstablished != 0
	m.Active = flags&flagActive != 0

	d := decoder{b: p, off: 3}
	d.fixedFields(&m)
	if flags&flagSnapshot != 0 {
		m.Snapshot = &core.Snapshot{Meta: core.SnapshotMeta{
			Zxid: core.Zxid(d.uvarint("Snapshot.Zxid")), Timestamp: d.varint("Snapshot.Timestamp"),
			Proposer: d.uvarint("Snapshot.Proposer"), Incarnation: d.uvarint("Snapshot.Incarnation"),
			Seq: d.uvarint("Snapshot.Seq")}}
		m.Snapshot.Data = d.bytes("Snapshot.Data")
	}
	if flags&flagEntries != 0 {
		m.Entries = d.entries()
	}
	if d.err == nil && d.off != len(p) {
		d.fail("%w: %d bytes of trailing garbage after the message", ErrMalformed, len(p)-d.off)
	}
	if d.err != nil {
		return core.Message{}, d.err
	}
	return m, nil
}

// decoder reads the payload front to back. The first error sticks and
// every later read returns zero, so the decoding functions read straight
// through without an if after every field.
type decoder struct {
	b   []byte
	off int
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
	}
}

func (d *decoder) fixedFields(m *core.Message) {
	m.From = d.uvarint("From")
	m.To = d.uvarint("To")
	m.Session = d.uvarint("Session")
	m.Round = d.uvarint("Round")
	m.Epoch = d.uint32("Epoch")
	m.State = core.Role(d.byte("State"))
	if m.State > core.Leading {
		d.fail("%w: unknown State %d", ErrMalformed, m.State)
	}
	m.Vote.Leader = d.uvarint("Vote.Leader")
	m.Vote.Epoch = d.uint32("Vote.Epoch")
	m.Vote.Zxid = core.Zxid(d.uvarint("Vote.Zxid"))
	m.AcceptedEpoch = d.uint32("AcceptedEpoch")
	m.CurrentEpoch = d.uint32("CurrentEpoch")
	m.LastZxid = core.Zxid(d.uvarint("LastZxid"))
	m.Mode = core.SyncMode(d.byte("Mode"))
	if m.Mode > core.SyncSnap {
		d.fail("%w: unknown Mode %d", ErrMalformed, m.Mode)
	}
	m.Zxid = core.Zxid(d.uvarint("Zxid"))
	m.Commit = core.Zxid(d.uvarint("Commit"))
	m.Seq = d.uvarint("Seq")
	m.ReqSeq = d.uvarint("ReqSeq")
}

func (d *decoder) entries() []core.Entry {
	n := d.uvarint("entry count")
	if d.err != nil {
		return nil
	}
	// Refuse a count the remaining bytes cannot hold before allocating, so
	// a 30-byte input cannot ask for a slice of 2^60 entries.
	if n == 0 || n > uint64(len(d.b)-d.off)/minEntryLen {
		d.fail("%w: entry count %d does not fit the %d remaining bytes", ErrMalformed, n, len(d.b)-d.off)
		return nil
	}
	es := make([]core.Entry, n)
	for i := range es {
		e := &es[i]
		e.Zxid = core.Zxid(d.uvarint("Entry.Zxid"))
		e.Timestamp = d.varint("Entry.Timestamp")
		e.Proposer = d.uvarint("Entry.Proposer")
		e.Incarnation = d.uvarint("Entry.Incarnation")
		e.Seq = d.uvarint("Entry.Seq")
		e.Data = d.bytes("Entry.Data")
		if d.err != nil {
			return nil
		}
	}
	return es
}

func (d *decoder) byte(field string) byte {
	if d.err != nil {
		return 0
	}
	if d.off >= len(d.b) {
		d.fail("%w: %s: unexpected end of payload at offset %d", ErrMalformed, field, d.off)
		return 0
	}
	d.off++
	return d.b[d.off-1]
}

func (d *decoder) uvarint(field string) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 {
		d.fail("%w: %s: bad varint at offset %d", ErrMalformed, field, d.off)
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) varint(field string) int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b[d.off:])
	if n <= 0 {
		d.fail("%w: %s: bad varint at offset %d", ErrMalformed, field, d.off)
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) uint32(field string) uint32 {
	v := d.uvarint(field)
	if v > math.MaxUint32 {
		d.fail("%w: %s: %d overflows 32 bits", ErrMalformed, field, v)
		return 0
	}
	return uint32(v)
}

// bytes returns the next length-prefixed field, aliasing the payload. An
// empty field is nil, so a decoded message re-encodes and decodes to the
// same value.
func (d *decoder) bytes(field string) []byte {
	if d.err != nil {
		return nil
	}
	// Not d.uvarint(field + " length"): that concatenation allocated once
	// for every entry decoded.
	n, k := binary.Uvarint(d.b[d.off:])
	if k <= 0 {
		d.fail("%w: %s length: bad varint at offset %d", ErrMalformed, field, d.off)
		return nil
	}
	d.off += k
	if n > uint64(len(d.b)-d.off) {
		d.fail("%w: %s: length %d exceeds the %d remaining bytes", ErrMalformed, field, n, len(d.b)-d.off)
		return nil
	}
	if n == 0 {
		return nil
	}
	end := d.off + int(n)
	b := d.b[d.off:end:end]
	d.off = end
	return b
}

// ReadFrame reads one frame (length header included, ready for
// DecodeMessage) whose payload is at most limit bytes (MaxFrame if limit <= 0).
// It returns io.EOF if r ends cleanly between frames and
// io.ErrUnexpectedEOF if it ends inside one. The buffer grows as the bytes
// arrive, so a lying length header costs the liar the bytes it claims, not
// the reader a huge allocation up front.
func ReadFrame(r *bufio.Reader, limit int) ([]byte, error) {
	if limit <= 0 || limit > MaxFrame {
		limit = MaxFrame
	}
	var hdr [headerLen]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := int(binary.BigEndian.Uint32(hdr[:]))
	if n > limit {
		return nil, fmt.Errorf("%w: length %d exceeds the maximum %d", ErrTooLarge, n, limit)
	}
	const chunk = 1 << 20
	buf := make([]byte, headerLen, headerLen+min(n, chunk))
	copy(buf, hdr[:])
	for len(buf) < headerLen+n {
		want := min(headerLen+n-len(buf), max(chunk, len(buf)))
		buf = slices.Grow(buf, want)
		if _, err := io.ReadFull(r, buf[len(buf):len(buf)+want]); err != nil {
			return nil, noEOF(err)
		}
		buf = buf[:len(buf)+want]
	}
	return buf, nil
}

// noEOF turns a clean end inside a frame into the error it is.
func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// ReadMessage reads and decodes one frame.
func ReadMessage(r *bufio.Reader, limit int) (core.Message, error) {
	f, err := ReadFrame(r, limit)
	if err != nil {
		return core.Message{}, err
	}
	return DecodeMessage(f)
}

// WriteMessage encodes m into buf (reused, returned for the next call) and
// writes the frame to w. A frame whose payload exceeds limit (MaxFrame if
// limit <= 0) is not written and yields ErrTooLarge: the receiver would refuse
// it and close the connection, and every retransmission would do the same.
func WriteMessage(w io.Writer, buf []byte, m *core.Message, limit int) ([]byte, error) {
	if limit <= 0 || limit > MaxFrame {
		limit = MaxFrame
	}
	buf = AppendMessage(buf[:0], m)
	if n := len(buf) - headerLen; n > limit {
		return buf, fmt.Errorf("%w: %s of %d bytes exceeds the maximum %d", ErrTooLarge, m.Type, n, limit)
	}
	_, err := w.Write(buf)
	return buf, err
}
