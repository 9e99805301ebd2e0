package server

// A multi or multiRead that carries an op it does not take, against
// ZooKeeper 3.8 (a differential review's script).

import (
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"zablab/internal/realzk"
	mw "zablab/mwzookeeper"
)

// multiCheckOp is a check op of any version.
func multiCheckOp(path string) []byte {
	return be32(jstr(be32(append(be32(nil, int32(mw.OpCheck)), 0), -1), path), -1)
}

// sendMultiOf sends op (multi or multiRead) with ops and describes the
// reply's error code and whether the connection then still answers, or
// that it closed.
func sendMultiOf(r *raw, xid int32, op mw.OpCode, ops ...[]byte) string {
	b := be32(be32(nil, xid), int32(op))
	for _, o := range ops {
		b = append(b, o...)
	}
	r.frame(be32(append(be32(b, -1), 1), -1))
	what, body := readOrClose(r, 3*time.Second)
	if what != "frame" {
		return "connection " + what
	}
	out := fmt.Sprintf("err %d", int32(binary.BigEndian.Uint32(body[12:])))
	r.frame(append(jstr(be32(be32(nil, xid+1), int32(mw.OpExists)), "/"), 0))
	what, _ = readOrClose(r, 3*time.Second)
	if what == "frame" {
		what = "answers"
	}
	return out + ", then the connection " + what
}

// multiOpsScript: write multis with reads in them and multiReads with
// writes or reads it does not take, each on a connection of its own, then
// whether the multi that began with a create made its node.
func multiOpsScript(t *testing.T, addr string) []string {
	var out []string
	c := dialAddr(t, addr)
	c.connect(0, make([]byte, 16), 10000)
	code, _, _, _ := rawCall(c, 1, mw.OpCreate, createBody("/a", 0))
	out = append(out, fmt.Sprintf("create /a: %d", code))
	cases := []struct {
		name string
		op   mw.OpCode
		ops  [][]byte
	}{
		{"multi create, getData", mw.OpMulti, [][]byte{multiCreateOp(1, "/m1", 0), multiReadOp(mw.OpGetData, "/a", true)}},
		{"multi getData", mw.OpMulti, [][]byte{multiReadOp(mw.OpGetData, "/a", true)}},
		{"multi getChildren", mw.OpMulti, [][]byte{multiReadOp(mw.OpGetChildren, "/", true)}},
		{"multi exists", mw.OpMulti, [][]byte{multiReadOp(mw.OpExists, "/", true)}},
		{"multi check, getData", mw.OpMulti, [][]byte{multiCheckOp("/a"), multiReadOp(mw.OpGetData, "/a", true)}},
		{"multiRead check", mw.OpMultiRead, [][]byte{multiCheckOp("/a")}},
		{"multiRead create", mw.OpMultiRead, [][]byte{multiCreateOp(1, "/m2", 0)}},
		{"multiRead getData, check", mw.OpMultiRead, [][]byte{multiReadOp(mw.OpGetData, "/a", true), multiCheckOp("/a")}},
		{"multiRead exists", mw.OpMultiRead, [][]byte{multiReadOp(mw.OpExists, "/a", true)}},
		{"multiRead getChildren2", mw.OpMultiRead, [][]byte{multiReadOp(mw.OpGetChildren2, "/a", true)}},
	}
	for i, k := range cases {
		r := dialAddr(t, addr)
		r.connect(0, make([]byte, 16), 10000)
		out = append(out, k.name+": "+sendMultiOf(r, int32(10+2*i), k.op, k.ops...))
	}
	for _, p := range []string{"/m1", "/m2"} {
		code, _, _, _ := rawCall(c, 2, mw.OpExists, append(jstr(nil, p), 0))
		out = append(out, fmt.Sprintf("exists %s: %d", p, code))
	}
	return out
}

// TestMultiForeignOpsAsZooKeeper: ZooKeeper answers a multi holding a
// read, or a multiRead holding a write or a check, MarshallingError (-5)
// and keeps the connection (its processors catch the IOException of
// "Invalid type of op"); ours closed it, failing every request the client
// had in flight with a connection loss.
func TestMultiForeignOpsAsZooKeeper(t *testing.T) {
	got := multiOpsScript(t, startA5(t, "").Addr().String())
	want := multiOpsScript(t, realzk.StartTWith(t))
	againstZooKeeper(t, want, got, nil)
}
