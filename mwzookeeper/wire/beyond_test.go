package wire

import (
	"bytes"
	"testing"

	mw "zablab/mwzookeeper"
)

// TestCallsBeyondTheSheet: getEphemerals and getAllChildrenNumber carry a
// path, whoAmI only its header; their replies are ZooKeeper 3.8's
// GetEphemeralsResponse, GetAllChildrenNumberResponse and WhoAmIResponse.
func TestCallsBeyondTheSheet(t *testing.T) {
	for _, c := range []struct {
		op   mw.OpCode
		path string
		body bool
	}{{mw.OpGetEphemerals, "/a", true}, {mw.OpGetAllChildrenNumber, "/b", true}, {mw.OpWhoAmI, "", false}} {
		frame := appendInt32(appendInt32(nil, 7), int32(c.op))
		if c.body {
			frame = appendString(frame, c.path)
		}
		var req mw.Request
		h, err := DecodeRequest(frame, &req)
		if err != nil || h.Op != c.op || h.Xid != 7 || req.Path != c.path {
			t.Errorf("%s: header %+v, path %q, error %v; want xid 7, path %q", c.op, h, req.Path, err, c.path)
		}
	}
	reply := func(op mw.OpCode, resp *mw.Response) []byte {
		b := AppendReply(nil, Header{Xid: 7, Op: op}, resp)
		return b[4+16:] // length, then ReplyHeader{xid, zxid, err}
	}
	for _, c := range []struct {
		op   mw.OpCode
		resp *mw.Response
		want []byte
	}{
		{mw.OpGetEphemerals, &mw.Response{Children: []string{"/e1", "/e2"}}, appendStrings(nil, []string{"/e1", "/e2"})},
		{mw.OpGetAllChildrenNumber, &mw.Response{Count: 42}, appendInt32(nil, 42)},
		{mw.OpWhoAmI, &mw.Response{Identity: []mw.ClientInfo{{Scheme: "ip", User: "127.0.0.1"}, {Scheme: "digest", User: "ada"}}},
			appendString(appendString(appendString(appendString(appendInt32(nil, 2), "ip"), "127.0.0.1"), "digest"), "ada")},
		{mw.OpAddWatch, &mw.Response{}, appendInt32(nil, 0)}, // ErrorResponse{0}, as 3.8.0 sends
		{mw.OpRemoveWatches, &mw.Response{}, nil},
		{mw.OpCheckWatches, &mw.Response{}, nil},
	} {
		if got := reply(c.op, c.resp); !bytes.Equal(got, c.want) {
			t.Errorf("%s reply body %x, want %x", c.op, got, c.want)
		}
	}
}
