package wire

import (
	"encoding/binary"
	"fmt"

	mw "zablab/mwzookeeper"
)

// The client's half of the protocol, for tests only: it encodes requests as
// a client does and decodes the server's replies, so every record can make
// a round trip. The go-zookeeper/zk test checks both halves against a real
// client.

// withOpenACL is r as the server decodes it when the client sent r with
// ZooKeeper's OPEN_ACL_UNSAFE for every create that names no ACL (as
// encodeRequest does, and as the real clients in these tests do).
func withOpenACL(r mw.Request) mw.Request {
	if r.Op.IsCreate() && r.ACL == nil {
		r.ACL = mw.OpenACL
	}
	if len(r.Ops) > 0 {
		r.Ops = append([]mw.Op(nil), r.Ops...)
		for i := range r.Ops {
			if r.Ops[i].Op.IsCreate() && r.Ops[i].ACL == nil {
				r.Ops[i].ACL = mw.OpenACL
			}
		}
	}
	return r
}

// encodeRequest returns the body of a request frame (no length prefix).
func encodeRequest(h Header, r *mw.Request) []byte {
	b := appendInt32(nil, h.Xid)
	b = appendInt32(b, int32(h.Op))
	switch h.Op {
	case mw.OpCreate, mw.OpCreate2, mw.OpCreateContainer, mw.OpCreateTTL:
		b = encodeCreate(b, &mw.Op{Op: h.Op, Path: r.Path, Data: r.Data, Mode: r.Mode, ACL: r.ACL, TTL: r.TTL})
	case mw.OpDelete, mw.OpCheck:
		b = appendString(b, r.Path)
		b = appendInt32(b, r.Version)
	case mw.OpSetACL:
		b = appendString(b, r.Path)
		b = appendACLs(b, r.ACL)
		b = appendInt32(b, r.Version)
	case mw.OpExists, mw.OpGetData, mw.OpGetChildren, mw.OpGetChildren2:
		b = appendString(b, r.Path)
		b = appendBool(b, r.Watch)
	case mw.OpSetData:
		b = appendString(b, r.Path)
		b = appendBuffer(b, r.Data)
		b = appendInt32(b, r.Version)
	case mw.OpSync, mw.OpGetACL:
		b = appendString(b, r.Path)
	case mw.OpMulti:
		b = encodeMulti(b, r.Ops)
	case mw.OpSetWatches, mw.OpSetWatches2:
		b = appendInt64(b, r.RelZxid)
		b = appendStrings(b, r.DataWatches)
		b = appendStrings(b, r.ExistWatches)
		b = appendStrings(b, r.ChildWatches)
		if h.Op == mw.OpSetWatches2 {
			b = appendStrings(b, r.PersistentWatches)
			b = appendStrings(b, r.RecursiveWatches)
		}
	case mw.OpAddWatch:
		b = appendString(b, r.Path)
		b = appendInt32(b, int32(r.WatchMode))
	case mw.OpRemoveWatches, mw.OpCheckWatches:
		b = appendString(b, r.Path)
		b = appendInt32(b, int32(r.WatcherType))
	}
	return b
}

// encodeCreate writes a CreateRequest (CreateTTLRequest for createTTL);
// a nil ACL is sent as OPEN_ACL_UNSAFE.
func encodeCreate(b []byte, o *mw.Op) []byte {
	b = appendString(b, o.Path)
	b = appendBuffer(b, o.Data)
	b = appendACLs(b, o.ACL)
	b = appendInt32(b, int32(o.Mode))
	if o.Op == mw.OpCreateTTL {
		b = appendInt64(b, o.TTL)
	}
	return b
}

func encodeMulti(b []byte, ops []mw.Op) []byte {
	for _, op := range ops {
		b = appendMultiHeader(b, op.Op, false, -1)
		switch op.Op {
		case mw.OpCreate, mw.OpCreate2, mw.OpCreateContainer, mw.OpCreateTTL:
			b = encodeCreate(b, &op)
		case mw.OpDelete, mw.OpCheck:
			b = appendString(b, op.Path)
			b = appendInt32(b, op.Version)
		case mw.OpSetData:
			b = appendString(b, op.Path)
			b = appendBuffer(b, op.Data)
			b = appendInt32(b, op.Version)
		}
	}
	return appendMultiDone(b)
}

// encodeConnect returns the body of a connect frame.
func encodeConnect(r ConnectRequest) []byte {
	b := appendInt32(nil, r.ProtocolVersion)
	b = appendInt64(b, r.LastZxidSeen)
	b = appendInt32(b, r.Timeout)
	b = appendInt64(b, r.SessionID)
	b = appendBuffer(b, r.Password)
	if r.HasReadOnly {
		b = appendBool(b, r.ReadOnly)
	}
	return b
}

// encodeAuth returns the body of an auth request frame, header included.
func encodeAuth(xid, typ int32, scheme string, auth []byte) []byte {
	b := appendInt32(nil, xid)
	b = appendInt32(b, int32(mw.OpAuth))
	b = appendInt32(b, typ)
	b = appendString(b, scheme)
	return appendBuffer(b, auth)
}

// frameBody checks a frame's length prefix and returns its body.
func frameBody(frame []byte) ([]byte, error) {
	if len(frame) < 4 || int(binary.BigEndian.Uint32(frame)) != len(frame)-4 {
		return nil, fmt.Errorf("bad length prefix in a frame of %d bytes", len(frame))
	}
	return frame[4:], nil
}

// decodeReply decodes a reply frame to a request of op as a client does:
// the error of a failed multi is its first non-zero result.
func decodeReply(frame []byte, op mw.OpCode) (int32, *mw.Response, error) {
	body, err := frameBody(frame)
	if err != nil {
		return 0, nil, err
	}
	d := decoder{b: body, record: "reply"}
	xid := d.int32("xid")
	resp := &mw.Response{Zxid: d.int64("zxid")}
	resp.Err = mw.ErrorOf(mw.Code(d.int32("err")))
	if resp.Err == nil && d.err == nil {
		decodeReplyBody(&d, op, resp)
	}
	return xid, resp, d.end()
}

func decodeReplyBody(d *decoder, op mw.OpCode, resp *mw.Response) {
	switch op {
	case mw.OpCreate, mw.OpSync:
		resp.Path = d.ustring("path")
	case mw.OpCreate2, mw.OpCreateContainer, mw.OpCreateTTL:
		resp.Path = d.ustring("path")
		resp.Stat = decodeStat(d)
	case mw.OpExists, mw.OpSetData, mw.OpCheck:
		resp.Stat = decodeStat(d)
	case mw.OpGetData:
		resp.Data = d.buffer("data")
		resp.Stat = decodeStat(d)
	case mw.OpGetChildren:
		resp.Children = d.strings("children")
	case mw.OpGetChildren2:
		resp.Children = d.strings("children")
		resp.Stat = decodeStat(d)
	case mw.OpMulti:
		resp.Results, resp.Err = decodeMultiReply(d)
	}
}

func decodeMultiReply(d *decoder) ([]mw.OpResult, error) {
	var results []mw.OpResult
	var first error
	for d.err == nil {
		typ := mw.OpCode(d.int32("type"))
		done := d.bool("done")
		code := d.int32("err")
		if done {
			break
		}
		r := mw.OpResult{Op: typ}
		switch typ {
		case mw.OpError:
			if c := d.int32("ErrorResponse.err"); c != code {
				d.fail("ErrorResponse.err", "%d differs from the header's %d", c, code)
			}
			r.Err = mw.ErrorOf(mw.Code(code))
			if first == nil {
				first = r.Err
			}
		case mw.OpCreate:
			r.Path = d.ustring("path")
		case mw.OpCreate2:
			r.Path = d.ustring("path")
			r.Stat = decodeStat(d)
		case mw.OpSetData:
			r.Stat = decodeStat(d)
		case mw.OpDelete, mw.OpCheck:
		default:
			d.fail("type", "unexpected result type %d", typ)
		}
		results = append(results, r)
	}
	return results, first
}

func decodeStat(d *decoder) mw.MWStat {
	var s mw.MWStat
	s.Czxid = d.int64("czxid")
	s.Mzxid = d.int64("mzxid")
	s.Ctime = d.int64("ctime")
	s.Mtime = d.int64("mtime")
	s.Version = d.int32("version")
	s.Cversion = d.int32("cversion")
	s.Aversion = d.int32("aversion")
	s.EphemeralOwner = d.int64("ephemeralOwner")
	s.DataLength = d.int32("dataLength")
	s.NumChildren = d.int32("numChildren")
	s.Pzxid = d.int64("pzxid")
	return s
}

// decodeConnectResponse decodes a connect response frame; hasReadOnly says
// whether it carried the readOnly byte.
func decodeConnectResponse(frame []byte) (r ConnectResponse, hasReadOnly bool, err error) {
	body, err := frameBody(frame)
	if err != nil {
		return r, false, err
	}
	d := decoder{b: body, record: "ConnectResponse"}
	r.ProtocolVersion = d.int32("protocolVersion")
	r.Timeout = d.int32("timeOut")
	r.SessionID = d.int64("sessionId")
	r.Password = d.buffer("passwd")
	if d.err == nil && d.off < len(body) {
		r.ReadOnly, hasReadOnly = d.bool("readOnly"), true
	}
	return r, hasReadOnly, d.end()
}

// decodeEvent decodes a watch event frame.
func decodeEvent(frame []byte) (ev mw.WatchEvent, xid, state int32, err error) {
	body, err := frameBody(frame)
	if err != nil {
		return ev, 0, 0, err
	}
	d := decoder{b: body, record: "event"}
	xid = d.int32("xid")
	ev.Zxid = d.int64("zxid")
	if code := d.int32("err"); code != 0 {
		d.fail("err", "%d in a watch event", code)
	}
	ev.Type = mw.EventType(d.int32("type"))
	state = d.int32("state")
	ev.Path = d.ustring("path")
	return ev, xid, state, d.end()
}
