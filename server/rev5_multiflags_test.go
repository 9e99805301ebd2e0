package server

import (
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"

	"zablab/internal/realzk"
)

// rev5MultiCreateOp sends a multi of one create op whose MultiHeader type is
// typ (1 create, 19 createContainer, 21 createTTL) with the given flags, and
// describes the reply (header error, each result's type and error).
func rev5MultiCreateOp(r *raw, xid, typ int32, path string, flags int32) string {
	b := be32(be32(nil, xid), 14) // multi
	b = append(be32(b, typ), 0)   // MultiHeader{typ, done false, -1}
	b = be32(b, -1)
	b = be32(jstr(b, path), 0)
	b = be32(b, 1)
	b = jstr(jstr(be32(b, 31), "world"), "anyone")
	b = be32(b, flags)
	if typ == 21 {
		b = be64(b, 60000)
	}
	b = be32(append(be32(b, -1), 1), -1)
	r.frame(b)
	var body []byte
	for {
		body = r.readFrame()
		if int32(binary.BigEndian.Uint32(body)) != -1 {
			break
		}
	}
	out := fmt.Sprintf("header err %d", int32(binary.BigEndian.Uint32(body[12:])))
	rest := body[16:]
	for len(rest) >= 9 {
		rt, done, code := int32(binary.BigEndian.Uint32(rest)), rest[4], int32(binary.BigEndian.Uint32(rest[5:]))
		rest = rest[9:]
		if done != 0 {
			break
		}
		switch rt {
		case -1:
			out += fmt.Sprintf("; error result %d", int32(binary.BigEndian.Uint32(rest)))
			rest = rest[4:]
		case 1, 15, 19, 21:
			n := int(binary.BigEndian.Uint32(rest))
			out += fmt.Sprintf("; result type %d err %d path %q", rt, code, rest[4:4+n])
			rest = rest[4+n:]
			if rt != 1 {
				rest = rest[68:]
			}
		default:
			return out + fmt.Sprintf("; result type %d: not read further", rt)
		}
	}
	return out
}

func rev5MultiCreateOpsScript(t *testing.T, addr string) []string {
	s := &scripter{t: t}
	r := dialAddr(t, addr)
	_, sid, _ := r.connect(0, make([]byte, 16), 10000)
	c := zkClient(t, 10e9, addr)
	cases := []struct {
		typ, flags int32
		path       string
	}{
		{19, 0, "/cc0"}, // createContainer op, persistent flags
		{19, 1, "/cc1"}, // createContainer op, ephemeral flags
		{21, 4, "/ct4"}, // createTTL op, container flags
		{21, 0, "/ct0"}, // createTTL op, persistent flags
	}
	for i, k := range cases {
		s.note(fmt.Sprintf("multi op type %d flags %d %s", k.typ, k.flags, k.path), nil,
			rev5MultiCreateOp(r, int32(10+i), k.typ, k.path, k.flags))
		ok, st, err := c.Exists(k.path)
		kind := "none"
		if ok {
			switch {
			case st.EphemeralOwner == 0:
				kind = "persistent"
			case st.EphemeralOwner == sid:
				kind = "ephemeral of the multi's session"
			case uint64(st.EphemeralOwner) == 0x8000000000000000:
				kind = "container"
			default:
				kind = fmt.Sprintf("owner %#x", uint64(st.EphemeralOwner))
			}
		}
		s.note("  exists "+k.path, err, ok, kind)
	}
	_ = zk.ErrNoNode
	return s.out
}

// TestRev5MultiCreateOpcodeFollowsFlags: ZooKeeper's MultiOperationRecord
// rebuilds every create op (create, create2, createContainer, createTTL)
// with Op.create(..., flags): the opcode comes from the flags. The change
// applies that only to create/create2 ops with flag 4; a createContainer
// op with flags 0 or 1, or a createTTL op with flags 0 or 4, differ.
func TestRev5MultiCreateOpcodeFollowsFlags(t *testing.T) {
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	want := rev5MultiCreateOpsScript(t, realzk.StartTWith(t, parityFlags...))
	got := rev5MultiCreateOpsScript(t, startA5(t, parityKeys).Addr().String())
	sameLines(t, want, got)
	if t.Failed() || os.Getenv("ZABLAB_DIFFFUZZ_SHOW") != "" {
		t.Logf("ZooKeeper:\n%s\nours:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}
