package wire

import (
	"bytes"
	"testing"

	mw "zablab/mwzookeeper"
)

// BenchmarkSetData1KiB reads, decodes and answers a setData request with
// 1 KiB of data, reusing the frame buffer, the Request and the output
// buffer as a connection does. The path string is the one allocation.
func BenchmarkSetData1KiB(b *testing.B) {
	req := mw.Request{Op: mw.OpSetData, Path: "/bench/node", Data: kb(1), Version: -1}
	body := encodeRequest(Header{Xid: 1, Op: mw.OpSetData}, &req)
	frame := append(appendInt32(nil, int32(len(body))), body...)
	resp := mw.Response{Zxid: 0x100000001, Stat: testStat}
	r := bytes.NewReader(frame)
	var buf, out []byte
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(frame)
		var err error
		if buf, err = ReadFrame(r, buf, MaxFrame); err != nil {
			b.Fatal(err)
		}
		h, err := DecodeRequest(buf, &req)
		if err != nil {
			b.Fatal(err)
		}
		out = AppendReply(out[:0], h, &resp)
	}
}

func TestSetDataAllocs(t *testing.T) {
	req := mw.Request{Op: mw.OpSetData, Path: "/bench/node", Data: kb(1), Version: -1}
	body := encodeRequest(Header{Xid: 1, Op: mw.OpSetData}, &req)
	resp := mw.Response{Zxid: 1, Stat: testStat}
	out := make([]byte, 0, 256)
	allocs := testing.AllocsPerRun(100, func() {
		h, err := DecodeRequest(body, &req)
		if err != nil {
			t.Fatal(err)
		}
		out = AppendReply(out[:0], h, &resp)
	})
	if allocs > 1 {
		t.Errorf("decode and answer a setData: %.1f allocations, want at most 1 (the path)", allocs)
	}
}
