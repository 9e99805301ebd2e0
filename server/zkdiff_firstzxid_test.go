package server

// The reply header's zxid of the first replies of a connection, before any
// read or write: pings, whoAmI, setWatches, auth.

import (
	"fmt"
	"testing"

	"zablab/internal/realzk"
	mw "zablab/mwzookeeper"
)

// firstZxidScript opens sessions after a create and sends each a first
// request of one kind, then a ping; zxids are offsets from the create's.
// Every new session takes a zxid of its own on both servers.
func firstZxidScript(t *testing.T, addr string) []string {
	r0 := dialAddr(t, addr)
	_, sess, pw := r0.connect(0, make([]byte, 16), 10000)
	_, base, _, _ := rawCall(r0, 1, mw.OpCreate, createBody("/fz", 0))
	rel := func(z int64) string {
		if z == 0 || z == -1 {
			return fmt.Sprint(z)
		}
		return fmt.Sprintf("base%+d", z-base)
	}
	firsts := []struct {
		what string
		xid  int32
		op   mw.OpCode
		body []byte
	}{
		{"ping", -2, mw.OpPing, nil},
		{"whoAmI", 1, mw.OpWhoAmI, nil},
		{"setWatches", -8, mw.OpSetWatches, be32(be32(be32(be64(nil, 0), 0), 0), 0)},
		{"auth digest", -4, mw.OpAuth, jstr(jstr(be32(nil, 0), "digest"), "u:p")},
		{"exists /fz", 1, mw.OpExists, append(jstr(nil, "/fz"), 0)},
	}
	var out []string
	for _, f := range firsts {
		r := dialAddr(t, addr)
		r.connect(0, make([]byte, 16), 10000)
		code, z, _, _ := rawCall(r, f.xid, f.op, f.body)
		_, zp, _, _ := rawCall(r, -2, mw.OpPing, nil)
		out = append(out, fmt.Sprintf("new session, first %s: code %d zxid %s; then ping zxid %s", f.what, code, rel(z), rel(zp)))
	}
	// The first session again, on a connection of its own: no new zxid.
	r := dialAddr(t, addr)
	r.sendConnect(sess, pw, 10000, base)
	r.readFrame()
	_, z, _, _ := rawCall(r, 1, mw.OpWhoAmI, nil)
	_, zp, _, _ := rawCall(r, -2, mw.OpPing, nil)
	out = append(out, fmt.Sprintf("reconnect, first whoAmI: zxid %s; then ping zxid %s", rel(z), rel(zp)))
	// An idle connection while another session writes.
	rw := dialAddr(t, addr)
	rw.connect(0, make([]byte, 16), 10000)
	rawCall(rw, 1, mw.OpCreate, createBody("/fz2", 0))
	_, z, _, _ = rawCall(r, 2, mw.OpWhoAmI, nil)
	_, zp, _, _ = rawCall(r, -2, mw.OpPing, nil)
	out = append(out, fmt.Sprintf("after another session's create, whoAmI: zxid %s; then ping zxid %s", rel(z), rel(zp)))
	return out
}

// TestFirstZxidsAsZooKeeper: ZooKeeper 3.8 gives a connection's first
// ping, whoAmI and setWatches replies the zxid it has processed (a new
// session's own createSession, at least), not 0; an auth reply carries 0.
// Kept different: an idle connection's ping and whoAmI there carry the
// zxid of another session's write since; here the newest zxid this
// connection has sent, as asking the Service at every ping would take its lock.
func TestFirstZxidsAsZooKeeper(t *testing.T) {
	got := firstZxidScript(t, startA5(t, "").Addr().String())
	want := firstZxidScript(t, realzk.StartTWith(t))
	againstZooKeeper(t, want, got, alikeBut("after another session's create,"))
}
