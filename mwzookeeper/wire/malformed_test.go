package wire

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"

	mw "zablab/mwzookeeper"
)

// Every proper prefix of a request is malformed (never a panic, never a
// different request), ErrBadBody with its header once the header is
// whole; a request with a byte too many is the same request, as
// ZooKeeper reads no further than the record.
func TestDecodeRequestTruncatedAndTrailing(t *testing.T) {
	for _, c := range requestCases() {
		body := c.body()
		var req mw.Request
		for n := 0; n < len(body); n++ {
			h, err := DecodeRequest(body[:n], &req)
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("%s cut to %d of %d bytes: err %v, want ErrMalformed", c.name, n, len(body), err)
			}
			if whole := n >= requestHeaderLen; whole != errors.Is(err, ErrBadBody) || whole && h.Op == 0 {
				t.Fatalf("%s cut to %d of %d bytes: header %+v, err %v; want ErrBadBody and the header once it is whole",
					c.name, n, len(body), h, err)
			}
		}
		var want mw.Request
		if _, err := DecodeRequest(body, &want); err != nil {
			continue // a create with an empty ACL: not a clean decode to compare with
		}
		if _, err := DecodeRequest(append(body, 0), &req); err != nil || !reflect.DeepEqual(req, want) {
			t.Errorf("%s with a trailing byte: err %v, request %+v; want %+v", c.name, err, req, want)
		}
	}
	conn := encodeConnect(ConnectRequest{Timeout: 1, Password: make([]byte, 16), HasReadOnly: true})
	for n := 0; n < len(conn)-1; n++ { // len-1 is the old client's record, which is fine
		if _, err := DecodeConnect(conn[:n]); !errors.Is(err, ErrMalformed) {
			t.Fatalf("connect cut to %d bytes: err %v, want ErrMalformed", n, err)
		}
	}
	if r, err := DecodeConnect(append(conn, 1)); err != nil || !r.HasReadOnly || r.ReadOnly {
		t.Errorf("connect with a byte after its readOnly byte: %+v, err %v; want it read, as ZooKeeper ignores the byte", r, err)
	}
	auth := encodeAuth(1, 0, "digest", []byte("a:b"))[requestHeaderLen:]
	for n := 0; n < len(auth); n++ {
		if _, _, _, err := DecodeAuth(auth[:n]); !errors.Is(err, ErrMalformed) {
			t.Fatalf("auth cut to %d bytes: err %v, want ErrMalformed", n, err)
		}
	}
	if _, scheme, a, err := DecodeAuth(append(auth, 1, 2, 3)); err != nil || scheme != "digest" || string(a) != "a:b" {
		t.Errorf("auth with 3 bytes left over: %q %q, err %v; want digest a:b, as ZooKeeper reads no further", scheme, a, err)
	}
}

// hostile returns request bodies with lengths and counts that lie.
func hostile() map[string][]byte {
	hdr := func(op mw.OpCode) []byte { return appendInt32(appendInt32(nil, 1), int32(op)) }
	return map[string][]byte{
		"path length 2^31-1": appendInt32(hdr(mw.OpGetData), 1<<31-1),
		"path length -2":     append(appendInt32(hdr(mw.OpGetData), -2), 0),
		"data length 2^31-1": appendInt32(appendString(hdr(mw.OpSetData), "/a"), 1<<31-1),
		"acl count 2^31-1":   appendInt32(appendBuffer(appendString(hdr(mw.OpCreate), "/a"), nil), 1<<31-1),
		"acl count -7":       appendInt32(appendBuffer(appendString(hdr(mw.OpCreate), "/a"), nil), -7),
		"watch count 2^31-1": appendInt32(appendInt64(hdr(mw.OpSetWatches), 0), 1<<31-1),
		"watch count 3, 12 bytes left": append(appendInt32(appendInt64(hdr(mw.OpSetWatches), 0), 3),
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9),
		"multi without done": appendInt32(appendString(appendMultiHeader(hdr(mw.OpMulti), mw.OpDelete, false, -1), "/a"), 1),
	}
}

// TestDecodeRequestOpNotInMulti: a multi holding a read and a multiRead
// holding a check are ErrOpNotInMulti with their header, whatever follows
// the op, so the server can answer MarshallingError to that xid as
// ZooKeeper does instead of closing the connection.
func TestDecodeRequestOpNotInMulti(t *testing.T) {
	hdr := func(op mw.OpCode) []byte { return appendInt32(appendInt32(nil, 7), int32(op)) }
	for name, body := range map[string][]byte{
		"multi getData":    appendString(appendMultiHeader(hdr(mw.OpMulti), mw.OpGetData, false, -1), "/a"),
		"multiRead check":  appendMultiHeader(hdr(mw.OpMultiRead), mw.OpCheck, false, -1),
		"multi of exists…": append(appendMultiHeader(hdr(mw.OpMulti), mw.OpExists, false, -1), 0xff),
	} {
		var req mw.Request
		h, err := DecodeRequest(body, &req)
		if !errors.Is(err, ErrOpNotInMulti) || errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err %v, want ErrOpNotInMulti", name, err)
		}
		if h.Xid != 7 || (h.Op != mw.OpMulti && h.Op != mw.OpMultiRead) {
			t.Errorf("%s: header %+v, want xid 7 and the multi's opcode", name, h)
		}
	}
}

func TestDecodeRequestHostileLengths(t *testing.T) {
	for name, body := range hostile() {
		var req mw.Request
		var err error
		allocated := bytesAllocated(func() { _, err = DecodeRequest(body, &req) })
		if !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err %v, want ErrMalformed", name, err)
		} else if !strings.Contains(err.Error(), "offset") {
			t.Errorf("%s: error %q does not say where", name, err)
		}
		// A frame of a few bytes may cost a few small strings, never memory
		// for the count it claims.
		if allocated > 64<<10 {
			t.Errorf("%s: decoding a %d-byte frame allocated %d bytes", name, len(body), allocated)
		}
	}
}

// bytesAllocated is how many bytes f allocates.
func bytesAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestReadFrame(t *testing.T) {
	frames := AppendError(nil, 1, 2, nil)
	frames = AppendEvent(frames, mw.WatchEvent{Type: mw.EventNodeCreated, Path: "/a"})
	r := bytes.NewReader(frames)
	buf := make([]byte, 0, 64)
	body, err := ReadFrame(r, buf, MaxFrame)
	if err != nil || len(body) != 16 || &body[0] != &buf[:1][0] {
		t.Fatalf("first frame: %d bytes, err %v; want 16 bytes in the caller's buffer", len(body), err)
	}
	body, err = ReadFrame(r, body, MaxFrame)
	if err != nil || len(body) != 16+4+4+6 {
		t.Fatalf("second frame: %d bytes, err %v; want 30", len(body), err)
	}
	if _, err := ReadFrame(r, body, MaxFrame); err != io.EOF {
		t.Errorf("at the end: err %v, want io.EOF", err)
	}

	cases := []struct {
		name  string
		in    []byte
		max   int
		want  error
		plain bool // the error is exactly want
	}{
		{"negative length", []byte{0xff, 0xff, 0xff, 0xfe}, MaxFrame, ErrMalformed, false},
		{"too large", appendInt32(nil, MaxFrame+1), MaxFrame, ErrTooLarge, false},
		{"over a small max", appendInt32(nil, 11), 10, ErrTooLarge, false},
		{"short length", []byte{0, 0}, MaxFrame, io.ErrUnexpectedEOF, false},
		{"short body", append(appendInt32(nil, 10), 1, 2, 3), MaxFrame, io.ErrUnexpectedEOF, false},
		{"ruok", []byte("ruok"), MaxFrame, ErrTooLarge, false},
	}
	for _, c := range cases {
		_, err := ReadFrame(bytes.NewReader(c.in), nil, c.max)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err %v, want %v", c.name, err, c.want)
		}
	}
	if body, err := ReadFrame(bytes.NewReader(appendInt32(nil, 0)), nil, MaxFrame); err != nil || len(body) != 0 {
		t.Errorf("empty frame: %d bytes, err %v; want 0 bytes, nil", len(body), err)
	}
}

func TestIsFourLetterWord(t *testing.T) {
	for _, w := range []string{"ruok", "srvr", "stat", "mntr", "conf", "envi", "cons", "wchs", "zzzz"} {
		var b [4]byte
		copy(b[:], w)
		if got, ok := IsFourLetterWord(b); !ok || got != w {
			t.Errorf("IsFourLetterWord(%q) = %q, %v; want %q, true", w, got, ok, w)
		}
		// As a frame length, a word is always too large.
		if n := int(int32(uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]))); n <= MaxFrame {
			t.Errorf("%q read as a length is %d, within MaxFrame", w, n)
		}
	}
	for _, b := range [][4]byte{{0, 0, 0, 44}, {0, 0, 1, 0}, {'R', 'U', 'O', 'K'}, {'r', 'u', 'o', ' '}} {
		if _, ok := IsFourLetterWord(b); ok {
			t.Errorf("IsFourLetterWord(%q) = true, want false", b[:])
		}
	}
}

// TestDecodeRequestNullPath: a null path is ErrBadBody with the header
// where ZooKeeper 3.8 answers MarshallingError (getData), and "" where it
// takes one (sync).
func TestDecodeRequestNullPath(t *testing.T) {
	hdr := func(op mw.OpCode) []byte { return appendInt32(appendInt32(nil, 7), int32(op)) }
	var req mw.Request
	h, err := DecodeRequest(append(appendInt32(hdr(mw.OpGetData), -1), 0), &req)
	if !errors.Is(err, ErrBadBody) || h.Xid != 7 || h.Op != mw.OpGetData {
		t.Errorf("getData with a null path: header %+v, err %v; want xid 7 getData and ErrBadBody", h, err)
	}
	create := func(flags int32) []byte { // a null path, no data, world:anyone, flags
		b := appendInt32(appendInt32(appendInt32(appendInt32(hdr(mw.OpCreate), -1), 0), 1), 31)
		return appendInt32(appendString(appendString(b, "world"), "anyone"), flags)
	}
	if _, err := DecodeRequest(create(0), &req); !errors.Is(err, ErrBadBody) {
		t.Errorf("create with a null path: err %v; want ErrBadBody", err)
	}
	if _, err := DecodeRequest(create(99), &req); err != nil || req.Mode != 99 {
		t.Errorf("create with a null path and flags 99: mode %d, err %v; want 99 and no error (ZooKeeper: BadArguments first)", req.Mode, err)
	}
	if _, err := DecodeRequest(appendInt32(hdr(mw.OpSync), -1), &req); err != nil || req.Path != "" {
		t.Errorf("sync with a null path: path %q, err %v; want \"\" and no error", req.Path, err)
	}
}

// TestDecodeMultiNullPath: a null path in a multi's or multiRead's op is
// ErrBadBody with the header, as ZooKeeper 3.8 answers the whole request
// MarshallingError; a read in a multi stays ErrOpNotInMulti.
func TestDecodeMultiNullPath(t *testing.T) {
	hdr := func(op mw.OpCode) []byte { return appendInt32(appendInt32(nil, 7), int32(op)) }
	done := func(b []byte) []byte { return appendMultiHeader(b, -1, true, -1) }
	var req mw.Request
	del := appendInt32(appendInt32(appendMultiHeader(hdr(mw.OpMulti), mw.OpDelete, false, -1), -1), -1)
	if h, err := DecodeRequest(done(del), &req); !errors.Is(err, ErrBadBody) || h.Op != mw.OpMulti {
		t.Errorf("multi [delete null]: header %+v, err %v; want multi and ErrBadBody", h, err)
	}
	get := append(appendInt32(appendMultiHeader(hdr(mw.OpMultiRead), mw.OpGetData, false, -1), -1), 0)
	if h, err := DecodeRequest(done(get), &req); !errors.Is(err, ErrBadBody) || h.Op != mw.OpMultiRead {
		t.Errorf("multiRead [getData null]: header %+v, err %v; want multiRead and ErrBadBody", h, err)
	}
	inMulti := append(appendInt32(appendMultiHeader(hdr(mw.OpMulti), mw.OpGetData, false, -1), -1), 0)
	if _, err := DecodeRequest(done(inMulti), &req); !errors.Is(err, ErrOpNotInMulti) {
		t.Errorf("multi [getData null]: err %v; want ErrOpNotInMulti", err)
	}
}
