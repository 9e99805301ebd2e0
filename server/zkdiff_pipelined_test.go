package server

// The header zxid of replies the server makes itself (whoAmI, ping, and
// requests it refuses before the Service) when they follow a write at
// once, against ZooKeeper 3.8 (a differential review's script; ours
// first, then ZooKeeper).

import (
	"encoding/binary"
	"fmt"
	"testing"

	"zablab/internal/realzk"
	mw "zablab/mwzookeeper"
)

// pipelinedZxidScript sends a create and, in the same write, a second
// request, and notes the second reply's header zxid beside the create's.
// ZooKeeper answers in order, each with the zxid it has processed then,
// so no reply carries a zxid older than an earlier one: a client takes
// every reply's zxid above 0 for the newest it has seen (the Java
// client's whoAmI does; pings are ignored by clients, but compared too).
func pipelinedZxidScript(t *testing.T, addr string) []string {
	var out []string
	r := dialAddr(t, addr)
	r.connect(0, make([]byte, 16), 10000)
	multiRead := append(multiReadOp(mw.OpGetData, "/", false), be32(append(be32(nil, -1), 1), -1)...)
	for i, next := range []struct {
		name string
		xid  int32 // 0: the create's plus one
		op   mw.OpCode
		body []byte
	}{
		{"whoAmI", 0, mw.OpWhoAmI, nil},
		{"ping", -2, mw.OpPing, nil},
		{"exists /", 0, mw.OpExists, append(jstr(nil, "/"), 0)},
		{"checkWatches / (none)", 0, mw.OpCheckWatches, be32(jstr(nil, "/"), 3)},
		{"create with an empty ACL", 0, mw.OpCreate, be32(be32(be32(jstr(nil, "/noacl"), 0), 0), 0)},
		{"multi holding a getData", 0, mw.OpMulti, multiRead},
		{"whoAmI again", 0, mw.OpWhoAmI, nil},
		{"create of a bad path", 0, mw.OpCreate, createBody("bad", 0)},
		{"reconfig", 0, mw.OpReconfig, be64(jstr(jstr(jstr(nil, ""), ""), "server.1=127.0.0.1:2888:3888;2181"), -1)},
		{"delete of a missing node", 0, mw.OpDelete, be32(jstr(nil, "/pznone"), -1)},
		{"setData of a bad version", 0, mw.OpSetData, be32(jstr(jstr(nil, "/pz0"), "x"), 9)},
		{"sync of a bad path", 0, mw.OpSync, jstr(nil, "bad")},
		{"create of an existing node", 0, mw.OpCreate, createBody("/pz0", 0)},
	} {
		xid := int32(100 + 2*i)
		first := append(be32(be32(nil, xid), int32(mw.OpCreate)), createBody(fmt.Sprintf("/pz%d", i), 0)...)
		if next.xid == 0 {
			next.xid = xid + 1
		}
		second := append(be32(be32(nil, next.xid), int32(next.op)), next.body...)
		both := append(be32(nil, int32(len(first))), first...)
		both = append(be32(both, int32(len(second))), second...)
		if _, err := r.nc.Write(both); err != nil {
			t.Fatal(err)
		}
		var zxids [2]int64
		var codes [2]int32
		for n := 0; n < 2; {
			f := r.readFrame()
			if int32(binary.BigEndian.Uint32(f)) == -1 {
				continue // a watch event
			}
			zxids[n], codes[n] = int64(binary.BigEndian.Uint64(f[4:])), int32(binary.BigEndian.Uint32(f[12:]))
			n++
		}
		// Newer is no difference: ZooKeeper gives a refused write an
		// error txn with a zxid of its own, ours does not (decisions.md).
		rel := "not older than the create's"
		if zxids[1] < zxids[0] {
			rel = "older than the create's"
		}
		out = append(out, fmt.Sprintf("create, then %s at once: codes %d, %d; the second's zxid is %s",
			next.name, codes[0], codes[1], rel))
	}
	return out
}

// TestPipelinedZxidsAsZooKeeper: a reply the server makes itself carries
// a zxid no older than the replies before it, as ZooKeeper's do.
func TestPipelinedZxidsAsZooKeeper(t *testing.T) {
	got := pipelinedZxidScript(t, startA5(t, "").Addr().String()) // first: without the reference (the handout) it skips before a JVM starts
	want := pipelinedZxidScript(t, realzk.StartTWith(t))
	againstZooKeeper(t, want, got, nil)
}
