package wire

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	mw "zablab/mwzookeeper"
)

// The fuzz targets check that no input panics a decoder, that nothing
// decoded claims more than the frame holds, and that what decodes survives
// encode and decode again unchanged. Seeds are the round-trip cases and the
// hostile inputs of the other tests.

func FuzzReadFrame(f *testing.F) {
	for _, c := range requestCases() {
		body := c.body()
		f.Add(append(appendInt32(nil, int32(len(body))), body...))
	}
	f.Add([]byte("ruok"))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Add(appendInt32(nil, 100))
	const max = 4 << 10
	f.Fuzz(func(t *testing.T, in []byte) {
		body, err := ReadFrame(bytes.NewReader(in), nil, max)
		if err != nil {
			return
		}
		if len(body) > max || len(in) < 4+len(body) || !bytes.Equal(body, in[4:4+len(body)]) {
			t.Fatalf("ReadFrame returned %d bytes that are not the frame's body", len(body))
		}
	})
}

func FuzzDecodeConnect(f *testing.F) {
	f.Add(encodeConnect(ConnectRequest{Timeout: 30000, Password: make([]byte, 16)}))
	f.Add(encodeConnect(ConnectRequest{LastZxidSeen: 9, Timeout: 4000, SessionID: 0x1234, Password: []byte("pw"), HasReadOnly: true}))
	f.Add(encodeConnect(ConnectRequest{ReadOnly: true, HasReadOnly: true}))
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := DecodeConnect(body)
		if err != nil {
			return
		}
		if len(r.Password) > len(body) {
			t.Fatalf("password of %d bytes from a %d-byte body", len(r.Password), len(body))
		}
		again, err := DecodeConnect(encodeConnect(r))
		if err != nil {
			t.Fatalf("re-encoded %+v does not decode: %v", r, err)
		}
		if d := cmp.Diff(r, again); d != "" {
			t.Fatalf("decode(encode(x)) != x (-x +got):\n%s", d)
		}
	})
}

func FuzzDecodeRequest(f *testing.F) {
	for _, c := range requestCases() {
		f.Add(c.body())
	}
	for _, body := range hostile() {
		f.Add(body)
	}
	f.Add(encodeAuth(XidAuth, 0, "digest", []byte("u:p")))
	f.Fuzz(func(t *testing.T, body []byte) {
		var req mw.Request
		h, err := DecodeRequest(body, &req)
		if err != nil || h.Op == mw.OpAuth {
			return
		}
		checkBounded(t, &req, len(body))
		var again mw.Request
		h2, err := DecodeRequest(encodeRequest(h, &req), &again)
		if err != nil || h2 != h {
			t.Fatalf("re-encoded %+v decodes to header %+v, err %v", req, h2, err)
		}
		if d := cmp.Diff(req, again); d != "" {
			t.Fatalf("decode(encode(x)) != x (-x +got):\n%s", d)
		}
	})
}

// checkBounded fails if req holds more than a body of n bytes can carry.
func checkBounded(t *testing.T, req *mw.Request, n int) {
	t.Helper()
	watches := len(req.DataWatches) + len(req.ExistWatches) + len(req.ChildWatches) +
		len(req.PersistentWatches) + len(req.RecursiveWatches)
	if len(req.Data) > n || len(req.Path) > n || 4*watches > n || 13*len(req.Ops) > n {
		t.Fatalf("a %d-byte body decoded to %d data bytes, %d path bytes, %d watches, %d ops",
			n, len(req.Data), len(req.Path), watches, len(req.Ops))
	}
}

func FuzzDecodeAuth(f *testing.F) {
	f.Add(encodeAuth(XidAuth, 0, "digest", []byte("u:p"))[requestHeaderLen:])
	f.Add(encodeAuth(XidAuth, 1, "", nil)[requestHeaderLen:])
	f.Fuzz(func(t *testing.T, body []byte) {
		typ, scheme, auth, err := DecodeAuth(body)
		if err != nil {
			return
		}
		if len(scheme)+len(auth) > len(body) {
			t.Fatalf("%d bytes of scheme and auth from a %d-byte body", len(scheme)+len(auth), len(body))
		}
		typ2, scheme2, auth2, err := DecodeAuth(encodeAuth(XidAuth, typ, scheme, auth)[requestHeaderLen:])
		if err != nil || typ2 != typ || scheme2 != scheme || !bytes.Equal(auth2, auth) || (auth2 == nil) != (auth == nil) {
			t.Fatalf("decode(encode(%d, %q, %q)) = %d, %q, %q, %v", typ, scheme, auth, typ2, scheme2, auth2, err)
		}
	})
}
