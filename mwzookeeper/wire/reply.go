package wire

import (
	mw "zablab/mwzookeeper"
)

// appendReplyHeader writes ReplyHeader{xid, zxid, err}.
func appendReplyHeader(dst []byte, xid int32, zxid int64, code mw.Code) []byte {
	dst = appendInt32(dst, xid)
	dst = appendInt64(dst, zxid)
	return appendInt32(dst, int32(code))
}

// AppendReply appends the whole reply frame for resp to the request with
// header h: the length prefix, ReplyHeader{xid, zxid, err} and the body
// ZooKeeper sends for h.Op. resp.Err's code (mwzookeeper.CodeOf) goes into
// the header, and an error reply has no body, as in ZooKeeper. A sync's
// reply carries resp.Path, where ZooKeeper echoes the request's path: the
// codec never sees the request, so the answering side fills it in.
//
// A failed multi is the exception, again as in ZooKeeper: its header says 0,
// and its body lists every result as an error result (0 for the ops before
// the failing one, the failing op's code, ErrRuntimeInconsistency after it),
// so clients find the cause in the results. A multi that failed before any
// op ran (resp.Results carries no error) is answered like any other error.
func AppendReply(dst []byte, h Header, resp *mw.Response) []byte {
	if resp == nil {
		resp = &mw.Response{}
	}
	dst, start := beginFrame(dst)
	if resp.Err != nil {
		if h.Op == mw.OpMulti && failedMulti(resp.Results) {
			dst = appendReplyHeader(dst, h.Xid, resp.Zxid, 0)
			dst = appendMultiErrors(dst, resp.Results)
		} else {
			dst = appendReplyHeader(dst, h.Xid, resp.Zxid, mw.CodeOf(resp.Err))
			if h.Op == mw.OpSASL { // ZooKeeper's failed SASL reply still has SetSASLResponse{null}
				dst = appendBuffer(dst, nil)
			}
		}
		return endFrame(dst, start)
	}
	dst = appendReplyHeader(dst, h.Xid, resp.Zxid, 0)
	dst = appendBody(dst, h.Op, resp)
	return endFrame(dst, start)
}

// appendBody writes the response record of a successful op.
func appendBody(dst []byte, op mw.OpCode, resp *mw.Response) []byte {
	switch op {
	case mw.OpCreate, mw.OpSync: // CreateResponse, SyncResponse
		return appendString(dst, resp.Path)
	case mw.OpCreate2, mw.OpCreateContainer, mw.OpCreateTTL: // Create2Response
		dst = appendString(dst, resp.Path)
		return appendStat(dst, &resp.Stat)
	case mw.OpExists, mw.OpSetData, mw.OpCheck, mw.OpSetACL: // ExistsResponse, SetDataResponse, SetACLResponse
		return appendStat(dst, &resp.Stat)
	case mw.OpGetData:
		dst = appendBuffer(dst, resp.Data)
		return appendStat(dst, &resp.Stat)
	case mw.OpGetChildren:
		return appendStrings(dst, resp.Children)
	case mw.OpGetChildren2:
		dst = appendStrings(dst, resp.Children)
		return appendStat(dst, &resp.Stat)
	case mw.OpMulti:
		return appendMulti(dst, resp.Results)
	case mw.OpGetACL: // GetACLResponse
		dst = appendACLs(dst, resp.ACL)
		return appendStat(dst, &resp.Stat)
	case mw.OpMultiRead: // MultiResponse: each read's result or error, then done
		return appendMultiRead(dst, resp.Results)
	case mw.OpGetEphemerals: // GetEphemeralsResponse{ephemerals}
		return appendStrings(dst, resp.Children)
	case mw.OpSASL: // SetSASLResponse{token}; nil is jute's null buffer
		return appendBuffer(dst, resp.Data)
	case mw.OpGetAllChildrenNumber: // GetAllChildrenNumberResponse{totalNumber}
		return appendInt32(dst, resp.Count)
	case mw.OpAddWatch: // ErrorResponse{err}: 3.8.0 answers addWatch with one, always 0
		return appendInt32(dst, 0)
	case mw.OpWhoAmI: // WhoAmIResponse{vector<ClientInfo{authScheme, user}>}
		dst = appendInt32(dst, int32(len(resp.Identity)))
		for _, id := range resp.Identity {
			dst = appendString(dst, id.Scheme)
			dst = appendString(dst, id.User)
		}
		return dst
	}
	// delete, setWatches, removeWatches, checkWatches, closeSession, ping,
	// auth: header only.
	return dst
}

// appendACLs writes a vector<ACL>. A Service that keeps no ACLs (Aufgabe
// 5's need not) answers getACL without one: every node then has
// ZooKeeper's OPEN_ACL_UNSAFE, [{31, world, anyone}].
func appendACLs(dst []byte, acl []mw.ACL) []byte {
	if acl == nil {
		acl = mw.OpenACL
	}
	dst = appendInt32(dst, int32(len(acl)))
	for _, a := range acl {
		dst = appendInt32(dst, int32(a.Perms))
		dst = appendString(dst, a.ID.Scheme)
		dst = appendString(dst, a.ID.ID)
	}
	return dst
}

// appendMultiHeader writes MultiHeader{type, done, err}.
func appendMultiHeader(dst []byte, typ mw.OpCode, done bool, code mw.Code) []byte {
	dst = appendInt32(dst, int32(typ))
	dst = appendBool(dst, done)
	return appendInt32(dst, int32(code))
}

// appendMultiDone ends a MultiResponse.
func appendMultiDone(dst []byte) []byte {
	return appendMultiHeader(dst, -1, true, -1)
}

// appendMulti writes the MultiResponse of a successful multi: per result a
// MultiHeader and the op's response record.
func appendMulti(dst []byte, results []mw.OpResult) []byte {
	for i := range results {
		r := &results[i]
		if r.Err != nil {
			dst = appendErrorResult(dst, mw.CodeOf(r.Err))
			continue
		}
		switch r.Op {
		case mw.OpCreate:
			dst = appendMultiHeader(dst, mw.OpCreate, false, 0)
			dst = appendString(dst, r.Path)
		case mw.OpCreate2, mw.OpCreateContainer, mw.OpCreateTTL:
			// ZooKeeper reports every create that returns a stat as create2.
			dst = appendMultiHeader(dst, mw.OpCreate2, false, 0)
			dst = appendString(dst, r.Path)
			dst = appendStat(dst, &r.Stat)
		case mw.OpSetData:
			dst = appendMultiHeader(dst, mw.OpSetData, false, 0)
			dst = appendStat(dst, &r.Stat)
		default: // delete, check: no record
			dst = appendMultiHeader(dst, r.Op, false, 0)
		}
	}
	return appendMultiDone(dst)
}

// appendMultiRead writes multiRead's MultiResponse: unlike a multi, each
// read succeeds or fails on its own.
func appendMultiRead(dst []byte, results []mw.OpResult) []byte {
	for i := range results {
		r := &results[i]
		switch {
		case r.Err != nil:
			dst = appendErrorResult(dst, mw.CodeOf(r.Err))
		case r.Op == mw.OpGetData:
			dst = appendMultiHeader(dst, mw.OpGetData, false, 0)
			dst = appendBuffer(dst, r.Data)
			dst = appendStat(dst, &r.Stat)
		default: // getChildren
			dst = appendMultiHeader(dst, mw.OpGetChildren, false, 0)
			dst = appendStrings(dst, r.Children)
		}
	}
	return appendMultiDone(dst)
}

// failedMulti says whether results carry the error of a multi that failed
// inside: then it is sent in ZooKeeper's failed-multi shape.
func failedMulti(results []mw.OpResult) bool {
	for i := range results {
		if results[i].Err != nil {
			return true
		}
	}
	return false
}

// appendMultiErrors writes a failed multi's results, every one an error
// result.
func appendMultiErrors(dst []byte, results []mw.OpResult) []byte {
	for i := range results {
		dst = appendErrorResult(dst, mw.CodeOf(results[i].Err))
	}
	return appendMultiDone(dst)
}

// appendErrorResult writes an error result: MultiHeader{-1, false, code}
// and ErrorResponse{code}.
func appendErrorResult(dst []byte, code mw.Code) []byte {
	dst = appendMultiHeader(dst, mw.OpError, false, code)
	return appendInt32(dst, int32(code))
}

// AppendError appends a reply frame that has only a header: for a ping
// (AppendError(dst, XidPing, zxid, nil)), an auth answer, an unknown op
// (ErrUnimplemented), or any error reply.
func AppendError(dst []byte, xid int32, zxid int64, err error) []byte {
	dst, start := beginFrame(dst)
	dst = appendReplyHeader(dst, xid, zxid, mw.CodeOf(err))
	return endFrame(dst, start)
}

// stateSyncConnected is the keeper state a watch event carries while the
// session is connected.
const stateSyncConnected = 3

// AppendEvent appends a watch event frame: ReplyHeader{-1, zxid, 0} and
// WatcherEvent{type, SyncConnected, path}.
func AppendEvent(dst []byte, ev mw.WatchEvent) []byte {
	dst, start := beginFrame(dst)
	dst = appendReplyHeader(dst, XidWatchEvent, ev.Zxid, 0)
	dst = appendInt32(dst, int32(ev.Type))
	dst = appendInt32(dst, stateSyncConnected)
	dst = appendString(dst, ev.Path)
	return endFrame(dst, start)
}
