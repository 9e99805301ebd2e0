package aufgabe5

import (
	"encoding/binary"
	"errors"
	"fmt"

	"zablab/mwzookeeper"
)

// The replicated message: what a replica proposes through Zab and every
// replica decodes at delivery. A compact binary format (varints), with a
// version byte first so that a newer format is refused, not misread:
//
//	version kind proposer:uvarint incarnation:8 bytes reqno:uvarint
//	kind request:  session:varint op:varint auth body
//	kind liveness: count:uvarint session:varint...
//	kind owner:    session:varint   (the session moved to the proposer)
//
// auth is the identities the request was sent with (a count, then scheme
// and id of each), so every replica checks ACLs alike; version 2, before
// ACLs, had none. A request's body is one op record (path, null flag,
// data, version, mode, then an ACL and a TTL; the flag keeps null data
// apart from empty data, as ZooKeeper does) for create, delete, setData,
// check, setACL and deleteContainer; a count of op records for multi;
// timeout and password for createSession; the expired flag for
// closeSession; nothing for the rest. (proposer, incarnation, reqno) names
// the request, so only the proposing run of the proposing replica answers
// it, also after restarts (A5.2). Version 4 is version 3's layout; a
// write of it with a path character beyond U+FFFF is refused at apply,
// as ZooKeeper refuses it, where version 3 took it (paths.go).

const txnVersion = 4

// oldestTxnVersion is the oldest format still read: logs written before
// ACLs replay as requests without identities, of nodes open to anyone.
const oldestTxnVersion = 2

// Message kinds.
const (
	kindRequest  byte = 1
	kindLiveness byte = 2
	kindOwner    byte = 3
)

// Limits a decoder checks before it believes a length. A path may be as
// long as a wire frame could ever carry (wire.MaxFrame was 1 MiB + 64 KiB
// until 2026-11-28): whatever a client could send must decode at
// delivery, also from an old log, or its request is never applied.
const (
	maxPathLen  = mwzookeeper.MaxData + 64<<10
	maxMultiOps = 1 << 16
	maxPassword = 64
	maxIDs      = 1 << 10 // identities of a request, entries of an ACL
)

// errBadTxn is why a delivered message was rejected.
var errBadTxn = errors.New("aufgabe5: malformed replicated message")

// txn is a decoded message. data, password and ops' data alias the
// message: apply copies what it keeps.
type txn struct {
	version     byte // the message's format (oldestTxnVersion..txnVersion)
	kind        byte
	proposer    uint64
	incarnation uint64
	reqno       uint64

	session  int64
	op       mwzookeeper.OpCode
	auth     []mwzookeeper.ID // the identities the request was sent with
	rec      mwzookeeper.Op   // create, delete, setData, check, setACL, deleteContainer
	ops      []mwzookeeper.Op
	timeout  int32
	password []byte
	expired  bool

	sessions []int64 // liveness
}

// header names the proposing request.
type header struct {
	proposer, incarnation, reqno uint64
}

func appendHeader(b []byte, kind byte, h header) []byte {
	b = append(b, txnVersion, kind)
	b = binary.AppendUvarint(b, h.proposer)
	b = binary.LittleEndian.AppendUint64(b, h.incarnation)
	return binary.AppendUvarint(b, h.reqno)
}

func appendBytes(b, s []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendOp(b []byte, o *mwzookeeper.Op) []byte {
	b = binary.AppendVarint(b, int64(o.Op))
	b = appendString(b, o.Path)
	if o.Data == nil {
		b = append(b, 1) // null, not empty
	} else {
		b = append(b, 0)
	}
	b = appendBytes(b, o.Data)
	b = binary.AppendVarint(b, int64(o.Version))
	b = binary.AppendVarint(b, int64(o.Mode))
	b = appendACL(b, o.ACL)
	return binary.AppendVarint(b, o.TTL)
}

// ACL tags: none given, ZooKeeper's OPEN_ACL_UNSAFE (the common case, one
// byte), or a list.
const (
	aclNone byte = iota
	aclOpen
	aclList
)

func appendACL(b []byte, acl []mwzookeeper.ACL) []byte {
	switch {
	case acl == nil:
		return append(b, aclNone)
	case mwzookeeper.IsOpen(acl):
		return append(b, aclOpen)
	}
	b = append(b, aclList)
	b = binary.AppendUvarint(b, uint64(len(acl)))
	for _, a := range acl {
		b = binary.AppendVarint(b, int64(a.Perms))
		b = appendString(b, a.ID.Scheme)
		b = appendString(b, a.ID.ID)
	}
	return b
}

func appendIDs(b []byte, ids []mwzookeeper.ID) []byte {
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		b = appendString(b, id.Scheme)
		b = appendString(b, id.ID)
	}
	return b
}

// appendRequest encodes a write request (A5.1). password and timeout are
// createSession's, drawn and fixed by the proposing replica; expired is
// closeSession's.
func appendRequest(b []byte, h header, req *mwzookeeper.Request, password []byte, expired bool) []byte {
	b = appendHeader(b, kindRequest, h)
	b = binary.AppendVarint(b, req.Session)
	b = binary.AppendVarint(b, int64(req.Op))
	b = appendIDs(b, req.Auth)
	switch req.Op {
	case mwzookeeper.OpCreate, mwzookeeper.OpCreate2, mwzookeeper.OpDelete, mwzookeeper.OpSetData, mwzookeeper.OpCheck,
		mwzookeeper.OpCreateContainer, mwzookeeper.OpCreateTTL, mwzookeeper.OpSetACL, mwzookeeper.OpDeleteContainer:
		b = appendOp(b, &mwzookeeper.Op{Op: req.Op, Path: req.Path, Data: req.Data, Version: req.Version, Mode: req.Mode,
			ACL: req.ACL, TTL: req.TTL})
	case mwzookeeper.OpMulti:
		b = binary.AppendUvarint(b, uint64(len(req.Ops)))
		for i := range req.Ops {
			b = appendOp(b, &req.Ops[i])
		}
	case mwzookeeper.OpCreateSession:
		b = binary.AppendVarint(b, int64(req.Timeout))
		b = appendBytes(b, password)
	case mwzookeeper.OpCloseSession:
		if expired {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return b
}

// appendLiveness encodes the sessions active on a replica since its last
// such message (A5.3).
func appendLiveness(b []byte, h header, sessions []int64) []byte {
	b = appendHeader(b, kindLiveness, h)
	b = binary.AppendUvarint(b, uint64(len(sessions)))
	for _, s := range sessions {
		b = binary.AppendVarint(b, s)
	}
	return b
}

// decoder reads a message with bounds checks; the first problem sticks.
type decoder struct {
	b       []byte
	off     int
	err     error
	version byte // the message's format: older ones lack fields
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: at byte %d: %s", errBadTxn, d.off, fmt.Sprintf(format, args...))
	}
}

func (d *decoder) byte() byte {
	if d.err != nil || d.off >= len(d.b) {
		d.fail("truncated")
		return 0
	}
	d.off++
	return d.b[d.off-1]
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 {
		d.fail("bad uvarint")
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b[d.off:])
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) int32() int32 {
	v := d.varint()
	if v != int64(int32(v)) {
		d.fail("%d does not fit 32 bits", v)
	}
	return int32(v)
}

func (d *decoder) uint64() uint64 {
	if d.err != nil || len(d.b)-d.off < 8 {
		d.fail("truncated")
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b[d.off:])
	d.off += 8
	return v
}

// bytes returns the next length-prefixed bytes (aliasing the message).
func (d *decoder) bytes(limit int) []byte {
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	if n > uint64(limit) || n > uint64(len(d.b)-d.off) {
		d.fail("length %d over limit %d or past the end", n, limit)
		return nil
	}
	s := d.b[d.off : d.off+int(n) : d.off+int(n)]
	d.off += int(n)
	return s
}

func (d *decoder) op() mwzookeeper.Op {
	var o mwzookeeper.Op
	o.Op = mwzookeeper.OpCode(d.int32())
	o.Path = string(d.bytes(maxPathLen))
	null := d.byte()
	o.Data = d.bytes(mwzookeeper.MaxData)
	switch {
	case null == 1:
		o.Data = nil
	case null != 0:
		d.fail("null flag %d", null)
	}
	o.Version = d.int32()
	o.Mode = mwzookeeper.CreateMode(d.int32())
	if d.version >= 3 {
		o.ACL = d.acl()
		o.TTL = d.varint()
	}
	return o
}

func (d *decoder) acl() []mwzookeeper.ACL {
	switch tag := d.byte(); tag {
	case aclNone:
		return nil
	case aclOpen:
		return mwzookeeper.OpenACL
	case aclList:
	default:
		d.fail("ACL tag %d", tag)
		return nil
	}
	n := d.uvarint()
	if n > maxIDs {
		d.fail("%d ACL entries", n)
		return nil
	}
	// An empty list (a request built in Go) decodes as empty, not nil,
	// so that the apply answers it InvalidACL, as appendACL meant.
	acl := make([]mwzookeeper.ACL, 0, n)
	for i := uint64(0); i < n && d.err == nil; i++ {
		perms := mwzookeeper.Perm(d.int32())
		scheme := string(d.bytes(maxPathLen))
		acl = append(acl, mwzookeeper.ACL{Perms: perms, ID: mwzookeeper.ID{Scheme: scheme, ID: string(d.bytes(maxPathLen))}})
	}
	return acl
}

// ids decodes a request's identities into prev's array, the previous
// request's: consecutive writes mostly come with the same identities, and
// an identity equal to the one it replaces keeps its strings, so the
// common case allocates nothing. Nothing keeps a txn's auth past its
// apply (FixupACL copies the IDs), so the array can be reused.
func (d *decoder) ids(prev []mwzookeeper.ID) []mwzookeeper.ID {
	n := d.uvarint()
	if n > maxIDs {
		d.fail("%d identities", n)
		return nil
	}
	if n == 0 {
		return nil
	}
	ids := prev[:0]
	for i := uint64(0); i < n && d.err == nil; i++ {
		scheme, id := d.bytes(maxPathLen), d.bytes(maxPathLen)
		if int(i) < len(prev) && string(scheme) == prev[i].Scheme && string(id) == prev[i].ID {
			ids = append(ids, prev[i]) // writes prev[i] over itself
			continue
		}
		ids = append(ids, mwzookeeper.ID{Scheme: string(scheme), ID: string(id)})
	}
	return ids
}

// decodeTxn decodes msg into t, reusing t's slices. An error wraps
// errBadTxn and says where (A5.2).
func decodeTxn(msg []byte, t *txn) error {
	d := decoder{b: msg}
	if d.version = d.byte(); d.err == nil && (d.version < oldestTxnVersion || d.version > txnVersion) {
		d.fail("version %d, want %d to %d", d.version, oldestTxnVersion, txnVersion)
	}
	prevAuth := t.auth
	*t = txn{ops: t.ops[:0], sessions: t.sessions[:0]}
	t.version = d.version
	t.kind = d.byte()
	t.proposer = d.uvarint()
	t.incarnation = d.uint64()
	t.reqno = d.uvarint()
	switch t.kind {
	case kindRequest:
		decodeRequest(&d, t, prevAuth)
	case kindOwner:
		t.session = d.varint()
	case kindLiveness:
		n := d.uvarint()
		if n > uint64(len(msg)) { // each session takes a byte at least
			d.fail("%d sessions in %d bytes", n, len(msg))
		}
		for i := uint64(0); i < n && d.err == nil; i++ {
			t.sessions = append(t.sessions, d.varint())
		}
	default:
		d.fail("unknown kind %d", t.kind)
	}
	if d.err == nil && d.off != len(msg) {
		d.fail("%d bytes left over", len(msg)-d.off)
	}
	return d.err
}

func decodeRequest(d *decoder, t *txn, prevAuth []mwzookeeper.ID) {
	t.session = d.varint()
	t.op = mwzookeeper.OpCode(d.int32())
	if d.version >= 3 {
		t.auth = d.ids(prevAuth)
	}
	switch t.op {
	case mwzookeeper.OpCreate, mwzookeeper.OpCreate2, mwzookeeper.OpDelete, mwzookeeper.OpSetData, mwzookeeper.OpCheck,
		mwzookeeper.OpCreateContainer, mwzookeeper.OpCreateTTL, mwzookeeper.OpSetACL, mwzookeeper.OpDeleteContainer:
		t.rec = d.op()
		if d.err == nil && t.rec.Op != t.op {
			d.fail("op record %s inside %s", t.rec.Op, t.op)
		}
	case mwzookeeper.OpMulti:
		n := d.uvarint()
		if n > maxMultiOps || n > uint64(len(d.b)) {
			d.fail("%d ops in a multi", n)
		}
		for i := uint64(0); i < n && d.err == nil; i++ {
			t.ops = append(t.ops, d.op())
		}
	case mwzookeeper.OpCreateSession:
		t.timeout = d.int32()
		t.password = d.bytes(maxPassword)
	case mwzookeeper.OpCloseSession:
		switch d.byte() {
		case 0:
		case 1:
			t.expired = true
		default:
			d.fail("expired flag not 0 or 1")
		}
	default:
		d.fail("op %s is not a replicated write", t.op)
	}
}
