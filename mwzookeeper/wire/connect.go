package wire

// ConnectRequest is the first frame a client sends: ZooKeeper's
// ConnectRequest followed, in clients since ZooKeeper 3.4, by a readOnly
// byte.
type ConnectRequest struct {
	ProtocolVersion int32
	LastZxidSeen    int64
	Timeout         int32 // ms, the timeout the client asks for
	SessionID       int64 // 0 for a new session
	Password        []byte
	ReadOnly        bool
	HasReadOnly     bool // the client sent the readOnly byte; answer in kind
}

// ConnectResponse is the server's answer to a ConnectRequest.
type ConnectResponse struct {
	ProtocolVersion int32
	Timeout         int32 // ms; 0 with SessionID 0 is ZooKeeper's "session expired" answer
	SessionID       int64
	Password        []byte // nil is sent as 16 zero bytes, as ZooKeeper does
	ReadOnly        bool
}

// passwordLen is the length of ZooKeeper's session passwords.
const passwordLen = 16

// DecodeConnect decodes the body of a client's first frame. Password aliases
// body.
func DecodeConnect(body []byte) (ConnectRequest, error) {
	d := decoder{b: body, record: "ConnectRequest"}
	var r ConnectRequest
	r.ProtocolVersion = d.int32("protocolVersion")
	r.LastZxidSeen = d.int64("lastZxidSeen")
	r.Timeout = d.int32("timeOut")
	r.SessionID = d.int64("sessionId")
	r.Password = d.buffer("passwd")
	if d.err == nil && d.off < len(d.b) {
		// Older clients end the record here; newer ones add one byte.
		r.ReadOnly = d.bool("readOnly")
		r.HasReadOnly = true
	}
	if d.err != nil {
		return ConnectRequest{}, d.err
	}
	// Bytes after the readOnly byte are ignored: ZooKeeper 3.8 reads no
	// further (TestConnectBytesLeftOverAsZooKeeper).
	return r, nil
}

// AppendConnectResponse appends the whole frame (length prefix included)
// answering a connect request. withReadOnly mirrors the request's
// HasReadOnly: a client that did not send the byte does not expect it back.
func AppendConnectResponse(dst []byte, r ConnectResponse, withReadOnly bool) []byte {
	dst, start := beginFrame(dst)
	dst = appendInt32(dst, r.ProtocolVersion)
	dst = appendInt32(dst, r.Timeout)
	dst = appendInt64(dst, r.SessionID)
	if r.Password == nil {
		var zero [passwordLen]byte
		dst = appendBuffer(dst, zero[:])
	} else {
		dst = appendBuffer(dst, r.Password)
	}
	if withReadOnly {
		dst = appendBool(dst, r.ReadOnly)
	}
	return endFrame(dst, start)
}
