package wire

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/google/go-cmp/cmp"

	mw "zablab/mwzookeeper"
)

type replyCase struct {
	name string
	op   mw.OpCode
	resp mw.Response
	want *mw.Response // what a client reads back, when it differs from resp
}

func replyCases() []replyCase {
	okResults := []mw.OpResult{
		{Op: mw.OpCheck},
		{Op: mw.OpCreate, Path: "/a/b0000000001"},
		{Op: mw.OpCreate2, Path: "/a/c", Stat: testStat},
		{Op: mw.OpDelete},
		{Op: mw.OpSetData, Stat: testStat},
	}
	failed := []mw.OpResult{
		{Op: mw.OpCheck},
		{Op: mw.OpCreate, Err: mw.ErrNodeExists},
		{Op: mw.OpDelete, Err: mw.ErrRuntimeInconsistency},
	}
	failedRead := []mw.OpResult{ // every result an error result, the first failure the multi's error
		{Op: mw.OpError},
		{Op: mw.OpError, Err: mw.ErrNodeExists},
		{Op: mw.OpError, Err: mw.ErrRuntimeInconsistency},
	}
	const z = 0x200000005
	return []replyCase{
		{name: "create", op: mw.OpCreate, resp: mw.Response{Zxid: z, Path: "/q/item-0000000003"}},
		{name: "create2", op: mw.OpCreate2, resp: mw.Response{Zxid: z, Path: "/c2", Stat: testStat}},
		{name: "createContainer", op: mw.OpCreateContainer, resp: mw.Response{Zxid: z, Path: "/c", Stat: testStat}},
		{name: "delete", op: mw.OpDelete, resp: mw.Response{Zxid: z}},
		{name: "exists", op: mw.OpExists, resp: mw.Response{Zxid: z, Stat: testStat}},
		{name: "getData", op: mw.OpGetData, resp: mw.Response{Zxid: z, Data: []byte("hello"), Stat: testStat}},
		{name: "getData null", op: mw.OpGetData, resp: mw.Response{Zxid: z, Stat: testStat}},
		{name: "getData empty", op: mw.OpGetData, resp: mw.Response{Zxid: z, Data: []byte{}, Stat: testStat}},
		{name: "setData", op: mw.OpSetData, resp: mw.Response{Zxid: z, Stat: testStat}},
		{name: "getChildren", op: mw.OpGetChildren, resp: mw.Response{Zxid: z, Children: []string{"a", "b", "ü"}}},
		{name: "getChildren none", op: mw.OpGetChildren, resp: mw.Response{Zxid: z}},
		{name: "getChildren2", op: mw.OpGetChildren2, resp: mw.Response{Zxid: z, Children: []string{"x"}, Stat: testStat}},
		{name: "sync", op: mw.OpSync, resp: mw.Response{Zxid: z, Path: "/a"}},
		{name: "check", op: mw.OpCheck, resp: mw.Response{Zxid: z, Stat: testStat}},
		{name: "multi", op: mw.OpMulti, resp: mw.Response{Zxid: z, Results: okResults}},
		{name: "multi empty", op: mw.OpMulti, resp: mw.Response{Zxid: z}},
		{name: "multi failed", op: mw.OpMulti, resp: mw.Response{Zxid: z, Err: mw.ErrNodeExists, Results: failed},
			want: &mw.Response{Zxid: z, Err: mw.ErrNodeExists, Results: failedRead}},
		{name: "multi failed before any op", op: mw.OpMulti, resp: mw.Response{Zxid: z, Err: mw.ErrConnectionLoss}},
		{name: "getData no node", op: mw.OpGetData, resp: mw.Response{Zxid: z, Err: mw.ErrNoNode, Data: []byte("ignored")},
			want: &mw.Response{Zxid: z, Err: mw.ErrNoNode}},
		{name: "create exists", op: mw.OpCreate, resp: mw.Response{Zxid: z, Err: mw.ErrNodeExists, Path: "/ignored"},
			want: &mw.Response{Zxid: z, Err: mw.ErrNodeExists}},
		{name: "setData bad version", op: mw.OpSetData, resp: mw.Response{Zxid: z, Err: mw.ErrBadVersion}},
		{name: "closeSession", op: mw.OpCloseSession, resp: mw.Response{Zxid: z}},
		{name: "setWatches", op: mw.OpSetWatches, resp: mw.Response{Zxid: z}},
		{name: "ping", op: mw.OpPing, resp: mw.Response{Zxid: z}},
	}
}

func TestReplyRoundTrip(t *testing.T) {
	for _, c := range replyCases() {
		t.Run(c.name, func(t *testing.T) {
			frame := AppendReply([]byte{0xEE}, Header{Xid: 42, Op: c.op}, &c.resp)
			if frame[0] != 0xEE {
				t.Fatalf("AppendReply overwrote dst")
			}
			xid, got, err := decodeReply(frame[1:], c.op)
			if err != nil {
				t.Fatalf("decode reply: %v\n%s", err, hex.Dump(frame))
			}
			if xid != 42 {
				t.Errorf("xid = %d, want 42", xid)
			}
			want := c.want
			if want == nil {
				want = &c.resp
			}
			if d := cmp.Diff(want, got, cmpErrors); d != "" {
				t.Errorf("reply differs (-want +got):\n%s", d)
			}
		})
	}
}

// TestFailedMultiShape pins the bytes of a failed multi: header err 0, every
// result an error result, as ZooKeeper's FinalRequestProcessor sends it.
func TestFailedMultiShape(t *testing.T) {
	resp := &mw.Response{Zxid: 9, Err: mw.ErrNoNode, Results: []mw.OpResult{
		{Op: mw.OpCreate, Path: "/x"}, {Op: mw.OpSetData, Err: mw.ErrNoNode}, {Op: mw.OpDelete, Err: mw.ErrRuntimeInconsistency},
	}}
	frame := AppendReply(nil, Header{Xid: 5, Op: mw.OpMulti}, resp)
	want := appendInt32(nil, 5) // xid
	want = appendInt64(want, 9) // zxid
	want = appendInt32(want, 0) // err: 0 for a failed multi
	for _, code := range []int32{0, -101, -2} {
		want = appendInt32(want, -1) // type: error
		want = append(want, 0)       // done: false
		want = appendInt32(want, code)
		want = appendInt32(want, code) // ErrorResponse
	}
	want = appendInt32(want, -1)
	want = append(want, 1)
	want = appendInt32(want, -1)
	want = append(appendInt32(nil, int32(len(want))), want...)
	if !bytes.Equal(frame, want) {
		t.Errorf("failed multi frame:\n%s\nwant:\n%s", hex.Dump(frame), hex.Dump(want))
	}
}

func TestAppendErrorAndEvent(t *testing.T) {
	frame := AppendError(nil, XidPing, 77, nil)
	xid, resp, err := decodeReply(frame, mw.OpPing)
	if err != nil || xid != XidPing || resp.Zxid != 77 || resp.Err != nil {
		t.Errorf("ping reply: xid %d, %+v, %v; want -2, zxid 77, no error", xid, resp, err)
	}
	frame = AppendError(nil, 3, 8, mw.ErrUnimplemented)
	xid, resp, err = decodeReply(frame, mw.OpGetACL)
	if err != nil || xid != 3 || resp.Zxid != 8 || mw.CodeOf(resp.Err) != -6 {
		t.Errorf("unimplemented reply: xid %d, %+v, %v; want 3, zxid 8, code -6", xid, resp, err)
	}
	for _, want := range []mw.WatchEvent{
		{Type: mw.EventNodeCreated, Path: "/a", Zxid: 0x100000001},
		{Type: mw.EventNodeDeleted, Path: "/a/b", Zxid: 2},
		{Type: mw.EventNodeDataChanged, Path: "/", Zxid: 3},
		{Type: mw.EventNodeChildrenChanged, Path: "/日本", Zxid: 4},
	} {
		got, xid, state, err := decodeEvent(AppendEvent(nil, want))
		if err != nil || xid != XidWatchEvent || state != 3 {
			t.Errorf("event %+v: xid %d, state %d, err %v; want -1, 3 (SyncConnected), nil", want, xid, state, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("event differs (-want +got):\n%s", d)
		}
	}
}
