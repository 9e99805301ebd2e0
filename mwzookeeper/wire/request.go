package wire

import (
	"errors"
	"fmt"

	mw "zablab/mwzookeeper"
)

// Header is a request's header: the client's xid and the opcode.
type Header struct {
	Xid int32
	Op  mw.OpCode
}

// DecodeRequest decodes a request frame body into req. req is reset first
// and must not be shared with an earlier request; Data slices alias body,
// so the caller copies what it keeps beyond the next ReadFrame into the same
// buffer. Strings are copies.
//
// Every op the service knows is decoded: create, create2, createContainer
// and createTTL (with their ACLs, flags as sent and TTL), delete, exists,
// getData, setData, getChildren, getChildren2, getACL, setACL, sync,
// check, multi, setWatches, setWatches2 (with its persistent and
// recursive watch lists), addWatch (Path, WatchMode), removeWatches and
// checkWatches (Path, WatcherType; neither is checked here), multiRead,
// getEphemerals, getAllChildrenNumber, whoAmI, sasl (its token in
// req.Data), closeSession and ping. A create whose ACL list is empty or
// null (also
// inside a multi) is decoded in full and returns the header and an
// *EmptyACLError (ErrEmptyACL): ZooKeeper answers it InvalidACL. For auth, req.Op is OpAuth and the caller decodes the rest with
// DecodeAuth(body[8:]). Any other opcode returns the header and
// ErrUnknownOp; a multi holding an op it does not take returns the header
// and ErrOpNotInMulti; a body that does not fit its record returns the
// header and ErrBadBody (with ErrMalformed), as does a null path where
// ZooKeeper cannot take one (nullPathRefused); a header that does not fit
// returns ErrMalformed alone. Bytes after the record are ignored.
func DecodeRequest(body []byte, req *mw.Request) (Header, error) {
	*req = mw.Request{}
	d := decoder{b: body, record: "RequestHeader"}
	h := Header{Xid: d.int32("xid"), Op: mw.OpCode(d.int32("type"))}
	if d.err != nil {
		return Header{}, d.err
	}
	req.Op, req.Xid = h.Op, h.Xid
	d.record = h.Op.String()
	null := d.nullNext()
	if null && nullPathRefused(h.Op) {
		*req = mw.Request{}
		return h, fmt.Errorf("%w (%w: %s.path is null)", ErrBadBody, ErrMalformed, h.Op)
	}
	var empty *EmptyACLError
	switch h.Op {
	case mw.OpCreate, mw.OpCreate2, mw.OpCreateContainer, mw.OpCreateTTL:
		var op mw.Op
		decodeCreate(&d, h.Op, &op)
		req.Path, req.Data, req.ACL, req.Mode, req.TTL = op.Path, op.Data, op.ACL, op.Mode, op.TTL
		if null && d.err == nil && createNullPathRefused(h.Op, op.Mode, op.TTL) {
			*req = mw.Request{}
			return h, fmt.Errorf("%w (%w: %s.path is null)", ErrBadBody, ErrMalformed, h.Op)
		}
		if op.ACL == nil && d.err == nil {
			empty = &EmptyACLError{Path: req.Path}
		}
	case mw.OpDelete, mw.OpCheck:
		req.Path = d.ustring("path")
		req.Version = d.int32("version")
	case mw.OpExists, mw.OpGetData, mw.OpGetChildren, mw.OpGetChildren2:
		req.Path = d.ustring("path")
		req.Watch = d.bool("watch")
	case mw.OpGetACL, mw.OpSync, mw.OpGetAllChildrenNumber: // {path}
		req.Path = d.ustring("path")
	case mw.OpSetACL: // SetACLRequest{path, acl, version}
		req.Path = d.ustring("path")
		req.ACL = d.acls("acl")
		req.Version = d.int32("version")
	case mw.OpSetData:
		req.Path = d.ustring("path")
		req.Data = d.buffer("data")
		req.Version = d.int32("version")
	case mw.OpGetEphemerals: // GetEphemeralsRequest{prefixPath}
		req.Path = d.ustring("prefixPath")
	case mw.OpMulti:
		req.Ops, empty = decodeMulti(&d)
	case mw.OpMultiRead:
		req.Ops = decodeMultiRead(&d)
	case mw.OpSetWatches, mw.OpSetWatches2, mw.OpAddWatch, mw.OpRemoveWatches, mw.OpCheckWatches:
		decodeWatches(&d, h.Op, req)
	case mw.OpAuth:
		return h, nil // the caller decodes the AuthPacket with DecodeAuth
	case mw.OpSASL: // GetSASLRequest{token}: the server answers it itself
		req.Data = d.buffer("token")
	case mw.OpCloseSession, mw.OpPing, mw.OpWhoAmI:
		// header only
	default:
		*req = mw.Request{}
		return h, fmt.Errorf("%w: %d (%s), xid %d", ErrUnknownOp, int32(h.Op), h.Op, h.Xid)
	}
	return h, finishRequest(&d, req, empty)
}

// nullPathRefused says whether op is a request whose first field, its
// path, ZooKeeper 3.8 cannot take null: it answers MarshallingError there
// (a NullPointerException on the path). setData's null path is
// BadArguments there, and sync, getEphemerals, addWatch and removeWatches
// take one; for those (and createTTL) a null path decodes as "". A null
// path in a multi's op is multiNullPath's.
func nullPathRefused(op mw.OpCode) bool {
	switch op {
	case mw.OpGetData, mw.OpExists, mw.OpGetChildren, mw.OpGetChildren2, mw.OpGetACL, mw.OpGetAllChildrenNumber,
		mw.OpDelete, mw.OpCheckWatches:
		return true
	}
	return false
}

// createNullPathRefused says whether ZooKeeper 3.8 reaches a create's null
// path (MarshallingError): it judges the flags (BadArguments for unknown
// ones) and the TTL against the mode (BadArguments for a TTL with a mode
// that takes none, and for a TTL mode by a create that has no TTL) first.
// A TTL mode with a TTL is left to the Service: ZooKeeper answers it
// Unimplemented with TTLs off, MarshallingError with them on.
func createNullPathRefused(op mw.OpCode, mode mw.CreateMode, ttl int64) bool {
	if !mode.Known() || mode.IsTTL() {
		return false
	}
	return op != mw.OpCreateTTL || ttl < 0
}

// finishRequest is DecodeRequest's verdict on a decoded body: a multi
// holding an op it does not take keeps its header (the server answers it),
// a malformed body leaves req empty and is ErrBadBody. Bytes left over
// after the record are ignored, as ZooKeeper 3.8 reads a request's record
// and no further (it answers such a request as if they were not there).
func finishRequest(d *decoder, req *mw.Request, empty *EmptyACLError) error {
	if errors.Is(d.err, ErrOpNotInMulti) {
		*req = mw.Request{Op: req.Op, Xid: req.Xid}
		return d.err
	}
	if d.err != nil {
		*req = mw.Request{}
		return fmt.Errorf("%w (%w)", ErrBadBody, d.err)
	}
	if empty != nil {
		return empty
	}
	return nil
}

// decodeWatches reads the requests about watches: SetWatches(2) after a
// reconnect, AddWatchRequest{path, mode}, and RemoveWatchesRequest and
// CheckWatchesRequest{path, type}.
func decodeWatches(d *decoder, op mw.OpCode, req *mw.Request) {
	switch op {
	case mw.OpSetWatches, mw.OpSetWatches2:
		req.RelZxid = d.int64("relativeZxid")
		req.DataWatches = d.strings("dataWatches")
		req.ExistWatches = d.strings("existWatches")
		req.ChildWatches = d.strings("childWatches")
		if op == mw.OpSetWatches2 {
			req.PersistentWatches = d.strings("persistentWatches")
			req.RecursiveWatches = d.strings("persistentRecursiveWatches")
		}
	case mw.OpAddWatch:
		req.Path = d.ustring("path")
		req.WatchMode = mw.WatchMode(d.int32("mode"))
	default:
		req.Path = d.ustring("path")
		req.WatcherType = mw.WatcherType(d.int32("type"))
	}
}

// decodeCreate reads a CreateRequest, or a CreateTTLRequest (one more
// field, the TTL). The mode is the flags as sent: the Service judges them
// with the opcode, as ZooKeeper does (createContainer makes a container
// whatever the flags, createTTL needs a TTL mode).
func decodeCreate(d *decoder, op mw.OpCode, o *mw.Op) {
	o.Op = op
	o.Path = d.ustring("path")
	o.Data = d.buffer("data")
	o.ACL = d.acls("acl")
	o.Mode = mw.CreateMode(d.int32("flags"))
	if op == mw.OpCreateTTL {
		o.TTL = d.int64("ttl")
	}
}

// multiCreateOp is the opcode ZooKeeper gives a multi's create op: it
// rebuilds every one from its flags (Op.create), whatever the header
// said, so createContainer with flag 0 makes a plain node (a create
// result, no stat) and create with the container flag a container. TTL
// flags keep the header's opcode: ZooKeeper answers a create or create2
// op with them MarshallingError for the whole multi (it cannot cast the
// record), which is not imitated; the Service refuses the op.
func multiCreateOp(typ mw.OpCode, mode mw.CreateMode) mw.OpCode {
	switch {
	case mode.IsTTL():
		return typ
	case mode == mw.Container:
		return mw.OpCreateContainer
	}
	return mw.OpCreate
}

// decodeMulti reads a MultiOperationRecord: a MultiHeader{type, done, err}
// before every op and a final one with done set. Every op consumes at least
// 13 bytes, so the slice stays bounded by the frame. The error names the
// first create with an empty ACL list, if any.
func decodeMulti(d *decoder) ([]mw.Op, *EmptyACLError) {
	var ops []mw.Op
	var empty *EmptyACLError
	for d.err == nil {
		typ := mw.OpCode(d.int32("header.type"))
		done := d.bool("header.done")
		d.int32("header.err")
		if done || d.err != nil {
			break
		}
		op := mw.Op{Op: typ}
		if multiNullPath(d, typ, mw.OpMulti) {
			break
		}
		switch typ {
		case mw.OpCreate, mw.OpCreate2, mw.OpCreateContainer, mw.OpCreateTTL:
			decodeCreate(d, typ, &op)
			op.Op = multiCreateOp(typ, op.Mode)
			if op.ACL == nil && d.err == nil && empty == nil {
				empty = &EmptyACLError{Op: len(ops), Path: op.Path}
			}
		case mw.OpDelete, mw.OpCheck:
			op.Path = d.ustring("path")
			op.Version = d.int32("version")
		case mw.OpSetData:
			op.Path = d.ustring("path")
			op.Data = d.buffer("data")
			op.Version = d.int32("version")
		default:
			notInMulti(d, typ, mw.OpMulti)
		}
		ops = append(ops, op)
	}
	return ops, empty
}

// decodeMultiRead reads a MultiOperationRecord of reads: getData and
// getChildren, each a path and a watch flag that ZooKeeper 3.8 ignores
// (its multiRead takes no other op).
func decodeMultiRead(d *decoder) []mw.Op {
	var ops []mw.Op
	for d.err == nil {
		typ := mw.OpCode(d.int32("header.type"))
		done := d.bool("header.done")
		d.int32("header.err")
		if done || d.err != nil {
			break
		}
		if typ != mw.OpGetData && typ != mw.OpGetChildren {
			notInMulti(d, typ, mw.OpMultiRead)
			break
		}
		if multiNullPath(d, typ, mw.OpMultiRead) {
			break
		}
		ops = append(ops, mw.Op{Op: typ, Path: d.ustring("path")})
		d.bool("watch") // ZooKeeper rebuilds each read without it: a multiRead leaves no watch
	}
	return ops
}

// multiNullPath stops the decoding of a multi (or multiRead) at an op of
// a type it takes whose path is null: ZooKeeper 3.8 answers the whole
// request MarshallingError, even behind an op that fails (a
// NullPointerException: a multi's getPendingChanges reads every op's path
// before any op runs, a multiRead's reads the path of each).
func multiNullPath(d *decoder, typ, multi mw.OpCode) bool {
	read := typ == mw.OpGetData || typ == mw.OpGetChildren
	switch typ {
	case mw.OpCreate, mw.OpCreate2, mw.OpCreateContainer, mw.OpCreateTTL, mw.OpDelete, mw.OpCheck, mw.OpSetData,
		mw.OpGetData, mw.OpGetChildren:
		if read != (multi == mw.OpMultiRead) {
			return false // an op the multi does not take: notInMulti's
		}
	default:
		return false
	}
	if !d.nullNext() {
		return false
	}
	d.err = fmt.Errorf("%w: %s's %s op at offset %d has a null path", ErrMalformed, multi, typ, d.off)
	return true
}

// notInMulti stops the decoding of a multi (or multiRead) at an op it does
// not take. The rest of the frame is not read: ZooKeeper too answers
// whatever follows such an op MarshallingError.
func notInMulti(d *decoder, typ, multi mw.OpCode) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s op %d (%s) at offset %d", ErrOpNotInMulti, multi, int32(typ), typ, d.off)
	}
}

// DecodeAuth decodes an AuthPacket, the body of an auth request after its
// 8-byte header. auth aliases body. Bytes after the record are ignored, as
// ZooKeeper 3.8 reads the record and no further (as for other requests).
func DecodeAuth(body []byte) (authType int32, scheme string, auth []byte, err error) {
	d := decoder{b: body, record: "AuthPacket"}
	authType = d.int32("type")
	scheme = d.ustring("scheme")
	auth = d.buffer("auth")
	if d.err != nil {
		return 0, "", nil, d.err
	}
	return authType, scheme, auth, nil
}
