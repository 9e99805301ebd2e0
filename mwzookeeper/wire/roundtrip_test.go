package wire

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	mw "zablab/mwzookeeper"
)

// cmpErrors compares errors by ZooKeeper code, the only part that travels.
var cmpErrors = cmp.Comparer(func(a, b error) bool { return mw.CodeOf(a) == mw.CodeOf(b) })

// testStat has a different value in every field, so a field out of place
// shows.
var testStat = mw.MWStat{Czxid: 0x100000001, Mzxid: 0x100000002, Pzxid: 0x100000003, Ctime: 1700000000001,
	Mtime: 1700000000002, Version: 4, Cversion: 5, Aversion: 6, EphemeralOwner: 0x7, DataLength: 8, NumChildren: 9}

type requestCase struct {
	name string
	xid  int32
	req  mw.Request // Op is the header's; what DecodeRequest must return (Xid is set from xid)
}

func kb(n int) []byte { return bytes.Repeat([]byte("z"), n<<10) }

func requestCases() []requestCase {
	ops := []mw.Op{
		{Op: mw.OpCheck, Path: "/a", Version: 3},
		{Op: mw.OpCreate, Path: "/a/b", Data: []byte("x"), Mode: mw.EphemeralSequential},
		{Op: mw.OpCreate2, Path: "/a/c", Data: []byte{}, Mode: mw.Persistent},
		{Op: mw.OpDelete, Path: "/a/d", Version: -1},
		{Op: mw.OpSetData, Path: "/a", Data: []byte("y"), Version: 7},
	}
	return []requestCase{
		{"create persistent", 1, mw.Request{Op: mw.OpCreate, Path: "/a", Data: []byte("hello"), Mode: mw.Persistent}},
		{"create ephemeral", 2, mw.Request{Op: mw.OpCreate, Path: "/e", Data: []byte("x"), Mode: mw.Ephemeral}},
		{"create sequential", 3, mw.Request{Op: mw.OpCreate, Path: "/q/item-", Data: []byte("x"), Mode: mw.PersistentSequential}},
		{"create ephemeral sequential", 4, mw.Request{Op: mw.OpCreate, Path: "/q/", Data: []byte("x"), Mode: mw.EphemeralSequential}},
		{"create null data", 5, mw.Request{Op: mw.OpCreate, Path: "/n", Mode: mw.Persistent}},
		{"create empty data", 6, mw.Request{Op: mw.OpCreate, Path: "/n", Data: []byte{}, Mode: mw.Persistent}},
		{"create2", 7, mw.Request{Op: mw.OpCreate2, Path: "/c2", Data: []byte("d"), Mode: mw.Ephemeral}},
		{"createContainer", 8, mw.Request{Op: mw.OpCreateContainer, Path: "/ct", Data: []byte("d"), Mode: mw.Container}},
		{"createTTL", 9, mw.Request{Op: mw.OpCreateTTL, Path: "/t", Data: []byte("d"), Mode: mw.PersistentTTL, TTL: 60000}},
		{"createTTL sequential", 10, mw.Request{Op: mw.OpCreateTTL, Path: "/t", Data: []byte("d"), Mode: mw.PersistentSeqTTL, TTL: 1}},
		{"create with ACLs", 11, mw.Request{Op: mw.OpCreate, Path: "/acl", ACL: []mw.ACL{
			{Perms: mw.PermRead, ID: mw.ID{Scheme: "ip", ID: "10.0.0.0/8"}},
			{Perms: mw.PermAll, ID: mw.ID{Scheme: "digest", ID: "u:aGFzaA=="}}}}},
		{"setACL", 12, mw.Request{Op: mw.OpSetACL, Path: "/acl", Version: 3, ACL: []mw.ACL{
			{Perms: mw.PermAdmin, ID: mw.ID{Scheme: "auth"}}}}},
		{"delete", 11, mw.Request{Op: mw.OpDelete, Path: "/a", Version: 3}},
		{"delete any version", 12, mw.Request{Op: mw.OpDelete, Path: "/a", Version: -1}},
		{"exists", 13, mw.Request{Op: mw.OpExists, Path: "/a"}},
		{"exists watch", 14, mw.Request{Op: mw.OpExists, Path: "/a", Watch: true}},
		{"getData watch", 15, mw.Request{Op: mw.OpGetData, Path: "/a", Watch: true}},
		{"setData 1 KiB", 16, mw.Request{Op: mw.OpSetData, Path: "/a", Data: kb(1), Version: -1}},
		{"getChildren", 17, mw.Request{Op: mw.OpGetChildren, Path: "/", Watch: true}},
		{"getChildren2", 18, mw.Request{Op: mw.OpGetChildren2, Path: "/a"}},
		{"sync", 19, mw.Request{Op: mw.OpSync, Path: "/a"}},
		{"check", 20, mw.Request{Op: mw.OpCheck, Path: "/a", Version: 2}},
		{"multi", 21, mw.Request{Op: mw.OpMulti, Ops: ops}},
		{"multi empty", 22, mw.Request{Op: mw.OpMulti}},
		{"setWatches", XidSetWatches, mw.Request{Op: mw.OpSetWatches, RelZxid: 0x500000007,
			DataWatches: []string{"/a", "/b"}, ExistWatches: []string{"/c"}, ChildWatches: []string{"/"}}},
		{"setWatches empty", 23, mw.Request{Op: mw.OpSetWatches, RelZxid: 1}},
		{"setWatches2", 24, mw.Request{Op: mw.OpSetWatches2, RelZxid: 2, DataWatches: []string{"/d"},
			PersistentWatches: []string{"/persistent"}, RecursiveWatches: []string{"/r", "/"}}},
		{"closeSession", 25, mw.Request{Op: mw.OpCloseSession}},
		{"ping", XidPing, mw.Request{Op: mw.OpPing}},
		{"unicode path", 26, mw.Request{Op: mw.OpGetData, Path: "/grüße/日本"}},
		{"getACL", 27, mw.Request{Op: mw.OpGetACL, Path: "/a"}},
		{"addWatch persistent", 28, mw.Request{Op: mw.OpAddWatch, Path: "/w", WatchMode: mw.WatchPersistent}},
		{"addWatch recursive", 29, mw.Request{Op: mw.OpAddWatch, Path: "/", WatchMode: mw.WatchPersistentRecursive}},
		{"addWatch bad mode", 30, mw.Request{Op: mw.OpAddWatch, Path: "no path", WatchMode: 7}},
		{"removeWatches", 31, mw.Request{Op: mw.OpRemoveWatches, Path: "/w", WatcherType: mw.WatcherAny}},
		{"checkWatches", 32, mw.Request{Op: mw.OpCheckWatches, Path: "/w", WatcherType: mw.WatcherChildren}},
	}
}

func (c requestCase) body() []byte {
	return encodeRequest(Header{Xid: c.xid, Op: c.req.Op}, &c.req)
}

func TestRequestRoundTrip(t *testing.T) {
	for _, c := range requestCases() {
		t.Run(c.name, func(t *testing.T) {
			want := withOpenACL(c.req)
			want.Xid = c.xid
			for i := range want.Ops {
				if want.Ops[i].Op == mw.OpCreate2 {
					// ZooKeeper rebuilds a multi's create ops from their
					// flags (multiCreateOp): a create2 op is a create.
					want.Ops[i].Op = mw.OpCreate
				}
			}
			var got mw.Request
			h, err := DecodeRequest(c.body(), &got)
			if err != nil {
				t.Fatalf("DecodeRequest: %v", err)
			}
			if h != (Header{Xid: c.xid, Op: c.req.Op}) {
				t.Errorf("header = %+v, want xid %d op %v", h, c.xid, c.req.Op)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("decoded request differs (-want +got):\n%s", d)
			}
		})
	}
}

// TestDecodeRequestEmptyACL: a create with an empty or null ACL list, alone
// or inside a multi, decodes in full and reports ErrEmptyACL with the index
// of the first such op, so the server can answer InvalidACL as ZooKeeper.
func TestDecodeRequestEmptyACL(t *testing.T) {
	create := func(b []byte, path string, count int32) []byte {
		b = appendInt32(appendBuffer(appendString(b, path), []byte("d")), count)
		return appendInt32(b, int32(mw.Persistent))
	}
	hdr := func(op mw.OpCode) []byte { return appendInt32(appendInt32(nil, 5), int32(op)) }
	multi := appendMultiHeader(hdr(mw.OpMulti), mw.OpCheck, false, -1)
	multi = appendInt32(appendString(multi, "/a"), -1)
	for _, count := range []int32{0, -1} {
		multi = appendMultiHeader(multi, mw.OpCreate, false, -1)
		multi = create(multi, fmt.Sprintf("/m%d", -count), count)
	}
	multi = appendMultiHeader(multi, -1, true, -1)
	for _, c := range []struct {
		name string
		body []byte
		op   int
		path string
	}{
		{"empty", create(hdr(mw.OpCreate), "/e", 0), 0, "/e"},
		{"null", create(hdr(mw.OpCreate2), "/n", -1), 0, "/n"},
		{"multi", multi, 1, "/m0"},
	} {
		var req mw.Request
		h, err := DecodeRequest(c.body, &req)
		var e *EmptyACLError
		if !errors.Is(err, ErrEmptyACL) || !errors.As(err, &e) || e.Op != c.op || e.Path != c.path || h.Xid != 5 {
			t.Errorf("%s: header %+v, err %v; want xid 5 and ErrEmptyACL at op %d %s", c.name, h, err, c.op, c.path)
		}
		if req.Path == "" && len(req.Ops) != 3 {
			t.Errorf("%s: request %+v not decoded in full", c.name, req)
		}
	}
}

func TestDecodeRequestAuthAndUnknown(t *testing.T) {
	body := encodeAuth(XidAuth, 0, "digest", []byte("user:secret"))
	var req mw.Request
	h, err := DecodeRequest(body, &req)
	if err != nil || h != (Header{Xid: XidAuth, Op: mw.OpAuth}) || req.Op != mw.OpAuth {
		t.Fatalf("auth: header %+v, op %v, err %v; want xid -4, auth, nil", h, req.Op, err)
	}
	typ, scheme, auth, err := DecodeAuth(body[requestHeaderLen:])
	if err != nil || typ != 0 || scheme != "digest" || string(auth) != "user:secret" {
		t.Errorf("DecodeAuth = %d, %q, %q, %v; want 0, digest, user:secret, nil", typ, scheme, auth, err)
	}

	sasl := appendBuffer(appendInt32(appendInt32(nil, 3), int32(mw.OpSASL)), []byte("tok"))
	if h, err := DecodeRequest(sasl, &req); err != nil || h.Op != mw.OpSASL || string(req.Data) != "tok" {
		t.Errorf("sasl: header %+v, token %q, err %v; want sasl, tok, nil", h, req.Data, err)
	}

	for _, op := range []mw.OpCode{mw.OpReconfig, mw.OpCreateSession, 4242} {
		body := appendInt32(appendInt32(nil, 77), int32(op))
		body = appendString(body, "/a") // whatever follows is not looked at
		h, err := DecodeRequest(body, &req)
		if !errors.Is(err, ErrUnknownOp) || h != (Header{Xid: 77, Op: op}) {
			t.Errorf("op %v: header %+v, err %v; want xid 77 and ErrUnknownOp", op, h, err)
		}
	}
}

func TestConnectRoundTrip(t *testing.T) {
	pw := []byte("0123456789abcdef")
	for _, c := range []ConnectRequest{
		{ProtocolVersion: 0, LastZxidSeen: 0, Timeout: 30000, SessionID: 0, Password: make([]byte, 16)},
		{ProtocolVersion: 0, LastZxidSeen: 0x300000009, Timeout: 4000, SessionID: 0x1234, Password: pw, HasReadOnly: true},
		{Timeout: 1, SessionID: -5, Password: pw, ReadOnly: true, HasReadOnly: true},
		{Timeout: 1, Password: nil, HasReadOnly: true},
	} {
		got, err := DecodeConnect(encodeConnect(c))
		if err != nil {
			t.Fatalf("DecodeConnect(%+v): %v", c, err)
		}
		if d := cmp.Diff(c, got); d != "" {
			t.Errorf("connect request differs (-want +got):\n%s", d)
		}
	}
	for _, c := range []struct {
		r            ConnectResponse
		withReadOnly bool
		want         ConnectResponse
	}{
		{ConnectResponse{Timeout: 4000, SessionID: 0x1234, Password: pw}, true, ConnectResponse{Timeout: 4000, SessionID: 0x1234, Password: pw}},
		{ConnectResponse{Timeout: 4000, SessionID: 7, Password: pw, ReadOnly: true}, true, ConnectResponse{Timeout: 4000, SessionID: 7, Password: pw, ReadOnly: true}},
		{ConnectResponse{Timeout: 4000, SessionID: 7, Password: pw}, false, ConnectResponse{Timeout: 4000, SessionID: 7, Password: pw}},
		// the expired answer: nil password goes out as ZooKeeper's 16 zeros
		{ConnectResponse{}, true, ConnectResponse{Password: make([]byte, 16)}},
	} {
		frame := AppendConnectResponse([]byte("prefix"), c.r, c.withReadOnly)
		if !bytes.HasPrefix(frame, []byte("prefix")) {
			t.Fatalf("AppendConnectResponse lost dst's contents")
		}
		got, hasRO, err := decodeConnectResponse(frame[len("prefix"):])
		if err != nil {
			t.Fatalf("decode connect response: %v", err)
		}
		if hasRO != c.withReadOnly {
			t.Errorf("readOnly byte present = %v, want %v", hasRO, c.withReadOnly)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("connect response differs (-want +got):\n%s", d)
		}
	}
}

// createContainer and createTTL decode with their flags as sent and their
// TTL: the Service judges them with the opcode, as ZooKeeper does.
func TestCreateContainerAndTTLKeepTheirFlags(t *testing.T) {
	for _, op := range []mw.OpCode{mw.OpCreateContainer, mw.OpCreateTTL} {
		for _, flags := range []mw.CreateMode{mw.Persistent, mw.EphemeralSequential, mw.PersistentTTL, 99} {
			sent := mw.Op{Op: op, Path: "/c", Mode: flags, TTL: 5000}
			if op != mw.OpCreateTTL {
				sent.TTL = 0
			}
			var req mw.Request
			body := encodeRequest(Header{Xid: 1, Op: op}, &mw.Request{Op: op, Path: sent.Path, Mode: flags, TTL: sent.TTL})
			if _, err := DecodeRequest(body, &req); err != nil || req.Mode != flags || req.TTL != sent.TTL {
				t.Errorf("%v with flags %d: mode %d ttl %d, %v; want the flags and ttl %d", op, flags, req.Mode, req.TTL, err, sent.TTL)
			}
			body = encodeMulti(appendInt32(appendInt32(nil, 2), int32(mw.OpMulti)), []mw.Op{sent})
			if _, err := DecodeRequest(body, &req); err != nil || len(req.Ops) != 1 || req.Ops[0].Mode != flags || req.Ops[0].TTL != sent.TTL {
				t.Errorf("%v with flags %d in a multi decoded to %+v, %v", op, flags, req.Ops, err)
			}
		}
	}
}
