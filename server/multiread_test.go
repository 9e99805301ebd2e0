package server

import (
	"encoding/binary"
	"fmt"
	"testing"

	"zablab/internal/realzk"
	mw "zablab/mwzookeeper"
)

// multiReadScript creates /mr ("d") with a child, then sends one multiRead
// of reads that succeed and fail, and returns what came back, read by
// read (stats by version and counts: zxids and times differ by server).
func multiReadScript(t *testing.T, addr string) []string {
	r := dialAddr(t, addr)
	r.connect(0, make([]byte, 16), 4000)
	for i, p := range []string{"/mr", "/mr/c1"} {
		if _, code := r.createRaw(int32(10+i), p, 0); code != 0 {
			t.Fatalf("create %s: %d", p, code)
		}
	}
	reads := []struct {
		op   mw.OpCode
		path string
	}{{mw.OpGetData, "/mr"}, {mw.OpGetData, "/missing"}, {mw.OpGetChildren, "/mr"},
		{mw.OpGetChildren, "/missing"}, {mw.OpGetData, "/mr/c1"}, {mw.OpGetChildren, "bad path"}}
	b := be32(be32(nil, 20), int32(mw.OpMultiRead))
	for _, rd := range reads {
		b = be32(append(be32(b, int32(rd.op)), 0), -1) // MultiHeader{type, done=false, err=-1}
		b = append(jstr(b, rd.path), 0)                // path, watch=false
	}
	b = append(be32(b, -1), 1)
	r.frame(be32(b, -1)) // MultiHeader{-1, done=true, -1}
	body := r.readFrame()
	out := []string{fmt.Sprintf("reply err %d", int32(binary.BigEndian.Uint32(body[12:])))}
	for p := body[16:]; len(p) >= 9; {
		typ, done, code := int32(binary.BigEndian.Uint32(p)), p[4] != 0, int32(binary.BigEndian.Uint32(p[5:]))
		p = p[9:]
		if done {
			break
		}
		switch typ {
		case int32(mw.OpGetData):
			n := int(binary.BigEndian.Uint32(p))
			data := string(p[4 : 4+n])
			st := p[4+n:] // Stat: czxid mzxid ctime mtime version cversion aversion owner dataLength numChildren pzxid
			out = append(out, fmt.Sprintf("getData %q version %d numChildren %d", data,
				int32(binary.BigEndian.Uint32(st[32:])), int32(binary.BigEndian.Uint32(st[56:]))))
			p = st[68:]
		case int32(mw.OpGetChildren):
			kids := strs(p)
			out = append(out, fmt.Sprintf("getChildren %q", kids))
			p = p[4:]
			for _, k := range kids {
				p = p[4+len(k):]
			}
		default:
			out = append(out, fmt.Sprintf("error result type %d code %d (%d)", typ, code, int32(binary.BigEndian.Uint32(p))))
			p = p[4:]
		}
	}
	return out
}

// TestMultiReadAsZooKeeper: multiRead answers each read on its own, as
// Apache ZooKeeper 3.8 does: a getData or getChildren of a missing node is
// an error result among the others, and the reply's header says no error.
func TestMultiReadAsZooKeeper(t *testing.T) {
	want := multiReadScript(t, realzk.StartT(t))
	got := multiReadScript(t, startA5(t, "").Addr().String())
	if fmt.Sprint(want) != fmt.Sprint(got) {
		t.Errorf("multiRead against ZooKeeper 3.8:\n\t%q\nagainst ours:\n\t%q", want, got)
	}
}
