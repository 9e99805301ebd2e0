package wire

import (
	"encoding/binary"
	"fmt"

	"zablab/mwzookeeper"
)

// Jute, ZooKeeper's serialization: int32 and int64 big-endian, a bool as
// one byte, a buffer or ustring as an int32 length (-1 for null) and the
// bytes, a vector as an int32 count (-1 for null) and the elements, a record
// as its fields in order with nothing between them.

// decoder reads jute fields from a frame body. The first failure sticks:
// later reads return zero values, so a record is decoded straight through
// and checked once at the end.
type decoder struct {
	b      []byte
	off    int
	record string // what is being decoded, for error messages
	err    error
}

func (d *decoder) fail(field, format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s.%s at offset %d: %s", ErrMalformed, d.record, field, d.off,
			fmt.Sprintf(format, args...))
	}
}

// need reports whether n more bytes are there, failing otherwise.
func (d *decoder) need(field string, n int) bool {
	if d.err != nil {
		return false
	}
	if n > len(d.b)-d.off {
		d.fail(field, "needs %d bytes, %d left", n, len(d.b)-d.off)
		return false
	}
	return true
}

func (d *decoder) int32(field string) int32 {
	if !d.need(field, 4) {
		return 0
	}
	v := int32(binary.BigEndian.Uint32(d.b[d.off:]))
	d.off += 4
	return v
}

func (d *decoder) int64(field string) int64 {
	if !d.need(field, 8) {
		return 0
	}
	v := int64(binary.BigEndian.Uint64(d.b[d.off:]))
	d.off += 8
	return v
}

// bool reads one byte; like Java's readBoolean, anything but 0 is true.
func (d *decoder) bool(field string) bool {
	if !d.need(field, 1) {
		return false
	}
	v := d.b[d.off] != 0
	d.off++
	return v
}

// buffer returns a slice of the body (aliasing it): nil for a null buffer,
// an empty non-nil slice for an empty one.
func (d *decoder) buffer(field string) []byte {
	n := d.int32(field)
	if d.err != nil {
		return nil
	}
	if n < 0 {
		if n != -1 {
			d.fail(field, "length %d is negative", n)
		}
		return nil
	}
	if !d.need(field, int(n)) {
		return nil
	}
	v := d.b[d.off : d.off+int(n) : d.off+int(n)]
	d.off += int(n)
	return v
}

// ustring reads a string; a null string reads as "" (no request of the
// service tells null from empty).
func (d *decoder) ustring(field string) string {
	return string(d.buffer(field))
}

// count reads a vector's count and checks that count elements of at least
// minSize bytes each fit in what is left, before anyone allocates for them.
// A null vector (-1) is -1.
func (d *decoder) count(field string, minSize int) int {
	n := d.int32(field)
	if d.err != nil {
		return 0
	}
	if n < 0 {
		if n != -1 {
			d.fail(field, "count %d is negative", n)
			return 0
		}
		return -1
	}
	if left := len(d.b) - d.off; int(n) > left/minSize {
		d.fail(field, "count %d does not fit in the %d bytes left", n, left)
		return 0
	}
	return int(n)
}

// strings reads a vector<ustring>: nil for a null or empty vector.
func (d *decoder) strings(field string) []string {
	n := d.count(field, 4)
	if n <= 0 {
		return nil
	}
	v := make([]string, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		v = append(v, d.ustring(field))
	}
	return v
}

// acls reads a vector<ACL>: nil for a null or empty one.
func (d *decoder) acls(field string) []mwzookeeper.ACL {
	n := d.count(field, 12) // perms, and two ustrings of at least their length
	if n <= 0 {
		return nil
	}
	out := make([]mwzookeeper.ACL, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		perms := mwzookeeper.Perm(d.int32(field + ".perms"))
		scheme := d.ustring(field + ".id.scheme")
		out = append(out, mwzookeeper.ACL{Perms: perms, ID: mwzookeeper.ID{Scheme: scheme, ID: d.ustring(field + ".id.id")}})
	}
	return out
}

// nullNext says whether the next field, a string or buffer, is null (a
// length of -1), without reading it.
func (d *decoder) nullNext() bool {
	return d.err == nil && len(d.b)-d.off >= 4 && int32(binary.BigEndian.Uint32(d.b[d.off:])) == -1
}

// end fails if bytes are left: ZooKeeper's records have no trailing fields.
func (d *decoder) end() error {
	if d.err == nil && d.off != len(d.b) {
		d.fail("end", "%d bytes left over", len(d.b)-d.off)
	}
	return d.err
}

func appendInt32(dst []byte, v int32) []byte {
	return binary.BigEndian.AppendUint32(dst, uint32(v))
}

func appendInt64(dst []byte, v int64) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(v))
}

func appendBool(dst []byte, v bool) []byte {
	if v {
		return append(dst, 1)
	}
	return append(dst, 0)
}

// appendBuffer writes nil as a null buffer (-1), so a node created with
// null data reads back as null, as in ZooKeeper.
func appendBuffer(dst []byte, v []byte) []byte {
	if v == nil {
		return appendInt32(dst, -1)
	}
	dst = appendInt32(dst, int32(len(v)))
	return append(dst, v...)
}

func appendString(dst []byte, v string) []byte {
	dst = appendInt32(dst, int32(len(v)))
	return append(dst, v...)
}

// appendStrings writes a vector<ustring>; nil is an empty vector, never a
// null one (go-zookeeper/zk cannot read a null vector).
func appendStrings(dst []byte, v []string) []byte {
	dst = appendInt32(dst, int32(len(v)))
	for _, s := range v {
		dst = appendString(dst, s)
	}
	return dst
}

// clientOwner is EphemeralOwner as ZooKeeper 3.8 shows it to clients: a
// session's id, or 0 (containers and TTL nodes are marked only inside).
func clientOwner(owner int64) int64 {
	if mwzookeeper.IsSessionOwner(owner) {
		return owner
	}
	return 0
}

// appendStat writes an MWStat as ZooKeeper's Stat, whose field order
// differs from MWStat's (pzxid comes last).
func appendStat(dst []byte, s *mwzookeeper.MWStat) []byte {
	dst = appendInt64(dst, s.Czxid)
	dst = appendInt64(dst, s.Mzxid)
	dst = appendInt64(dst, s.Ctime)
	dst = appendInt64(dst, s.Mtime)
	dst = appendInt32(dst, s.Version)
	dst = appendInt32(dst, s.Cversion)
	dst = appendInt32(dst, s.Aversion)
	dst = appendInt64(dst, clientOwner(s.EphemeralOwner))
	dst = appendInt32(dst, s.DataLength)
	dst = appendInt32(dst, s.NumChildren)
	return appendInt64(dst, s.Pzxid)
}
