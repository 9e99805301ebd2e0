package server

// Requests whose body does not fit their opcode's record (cut short, a
// length that lies, bytes left over), against ZooKeeper 3.8: its reply
// and whether the connection goes on.

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	"zablab/internal/realzk"
	mw "zablab/mwzookeeper"
)

// reqHeader is a RequestHeader{xid, type}.
func reqHeader(xid int32, op mw.OpCode) []byte { return be32(be32(nil, xid), int32(op)) }

// cutShortCases are frame bodies sent after the handshake, each on a
// session of its own; xid 5 where the header is whole.
func cutShortCases() []struct {
	name string
	body []byte
} {
	create := append(reqHeader(5, mw.OpCreate), createBody("/cs", 0)...)
	return []struct {
		name string
		body []byte
	}{
		{"getData, path length 100, 5 bytes follow", append(be32(reqHeader(5, mw.OpGetData), 100), "/abcd"...)},
		{"getData without its watch byte", jstr(reqHeader(5, mw.OpGetData), "/")},
		{"getData, no body", reqHeader(5, mw.OpGetData)},
		{"getData, path length -5", append(be32(reqHeader(5, mw.OpGetData), -5), 0)},
		{"getData, path length 2^31-1", append(be32(reqHeader(5, mw.OpGetData), 0x7fffffff), 0)},
		{"exists without its watch byte", jstr(reqHeader(5, mw.OpExists), "/")},
		{"getChildren2, path cut", be32(reqHeader(5, mw.OpGetChildren2), 3)},
		{"sync, path cut", be32(reqHeader(5, mw.OpSync), 9)},
		{"create without its flags", create[:len(create)-4]},
		{"create, path length 100", append(be32(reqHeader(5, mw.OpCreate), 100), "/p"...)},
		{"setData without its version", jstr(jstr(reqHeader(5, mw.OpSetData), "/"), "x")},
		{"delete without its version", jstr(reqHeader(5, mw.OpDelete), "/none")},
		{"multi without its done header", append(reqHeader(5, mw.OpMulti), multiDeleteOp("/none")...)},
		{"setWatches, lists cut", be64(reqHeader(5, mw.OpSetWatches), 0)},
		{"addWatch without its mode", jstr(reqHeader(5, mw.OpAddWatch), "/")},
		{"auth, scheme cut", be32(be32(reqHeader(-4, mw.OpAuth), 0), 100)},
		{"sasl, token cut", be32(reqHeader(5, mw.OpSASL), 100)},
		{"header cut to 6 bytes", []byte{0, 0, 0, 5, 0, 0}},
		{"getData, null path", append(be32(reqHeader(5, mw.OpGetData), -1), 0)},
		{"exists, null path", append(be32(reqHeader(5, mw.OpExists), -1), 0)},
		{"getChildren, null path", append(be32(reqHeader(5, mw.OpGetChildren), -1), 0)},
		{"getChildren2, null path", append(be32(reqHeader(5, mw.OpGetChildren2), -1), 0)},
		{"getACL, null path", be32(reqHeader(5, mw.OpGetACL), -1)},
		{"getAllChildrenNumber, null path", be32(reqHeader(5, mw.OpGetAllChildrenNumber), -1)},
		{"delete, null path", be32(be32(reqHeader(5, mw.OpDelete), -1), -1)},
		{"create, null path", append(be32(reqHeader(5, mw.OpCreate), -1), createBody("", 0)[4:]...)},
		{"createContainer, null path", append(be32(reqHeader(5, mw.OpCreateContainer), -1), createBody("", 0)[4:]...)},
		{"checkWatches, null path", be32(be32(reqHeader(5, mw.OpCheckWatches), -1), 1)},
		{"removeWatches, null path", be32(be32(reqHeader(5, mw.OpRemoveWatches), -1), 1)},
		{"setData, null path", be32(be32(be32(reqHeader(5, mw.OpSetData), -1), -1), -1)},
		{"sync, null path", be32(reqHeader(5, mw.OpSync), -1)},
		{"getEphemerals, null path", be32(reqHeader(5, mw.OpGetEphemerals), -1)},
		{"addWatch, null path", be32(be32(reqHeader(5, mw.OpAddWatch), -1), 0)},
		{"exists with 3 bytes left over", append(append(jstr(reqHeader(5, mw.OpExists), "/"), 0), 1, 2, 3)},
		{"whoAmI with 3 bytes left over", append(reqHeader(5, mw.OpWhoAmI), 1, 2, 3)},
	}
}

// cutShortScript sends each case, then at once a good exists (xid 77),
// and describes every reply up to the exists' (or the close).
func cutShortScript(t *testing.T, addr string) []string {
	var out []string
	for _, c := range cutShortCases() {
		r := dialAddr(t, addr)
		r.connect(0, make([]byte, 16), 10000)
		r.frame(c.body)
		r.frame(append(jstr(reqHeader(77, mw.OpExists), "/"), 0))
		var got []string
		for len(got) < 4 {
			what, b := readOrClose(r, 5*time.Second)
			if what != "frame" {
				got = append(got, what)
				break
			}
			xid := int32(binary.BigEndian.Uint32(b))
			got = append(got, fmt.Sprintf("xid %d err %d", xid, int32(binary.BigEndian.Uint32(b[12:]))))
			if xid == 77 {
				break
			}
		}
		out = append(out, c.name+": "+strings.Join(got, ", "))
	}
	return out
}

// TestCutShortRequestsAsZooKeeper: ZooKeeper 3.8 answers a request whose
// header is whole but whose body is cut short or lies about a length
// with MarshallingError (-5) and keeps the connection (the next request
// is answered), and so a null path where it cannot take one (getData,
// exists, getChildren(2), getACL, getAllChildrenNumber, delete, the
// creates, checkWatches: setData's is BadArguments, sync, getEphemerals
// and addWatch take it); it ignores bytes left over after the record; it closes
// the connection without a reply where the header itself, an auth or a
// sasl packet is cut.
func TestCutShortRequestsAsZooKeeper(t *testing.T) {
	got := cutShortScript(t, startA5(t, "").Addr().String())
	want := cutShortScript(t, realzk.StartTWith(t))
	againstZooKeeper(t, want, got, nil)
}
