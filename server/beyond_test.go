package server

import (
	"encoding/binary"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"

	"zablab/internal/realzk"
	mw "zablab/mwzookeeper"
)

// strs reads a vector<ustring> at b, returning it and the rest.
func strs(b []byte) []string {
	n := int(int32(binary.BigEndian.Uint32(b)))
	b = b[4:]
	var out []string
	for i := 0; i < n; i++ {
		l := int(binary.BigEndian.Uint32(b))
		out = append(out, string(b[4:4+l]))
		b = b[4+l:]
	}
	return out
}

func dialAddr(t *testing.T, addr string) *raw {
	t.Helper()
	ta, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return dialRaw(t, ta)
}

// beyondScript runs addauth digest and whoAmI, and getEphemerals with odd
// prefixes, against addr; it returns what it saw, line by line.
func beyondRawScript(t *testing.T, addr string) []string {
	var out []string
	r := dialAddr(t, addr)
	r.connect(0, make([]byte, 16), 4000)
	for i, p := range []string{"/rv2", "/rv2/e1", "/rv2x", "/rv2/\u00e4"} {
		flags := int32(1) // ephemeral
		if i == 0 {
			flags = 0
		}
		if _, code := r.createRaw(int32(10+i), p, flags); code != 0 {
			t.Fatalf("create %s: %d", p, code)
		}
	}
	for i, prefix := range []string{"/rv2/", " /rv2/", "/rv2/ ", "/rv2/\xc3", "\x00"} {
		xid := int32(20 + i)
		r.frame(jstr(be32(be32(nil, xid), int32(mw.OpGetEphemerals)), prefix))
		body := r.readFrame()
		code := int32(binary.BigEndian.Uint32(body[12:]))
		var got []string
		if code == 0 {
			got = strs(body[16:])
			slices.Sort(got)
		}
		out = append(out, fmt.Sprintf("getEphemerals %q: code %d %q", prefix, code, got))
	}
	for i, p := range []string{"/rv2", "/rv2/", "rv2", "/rv2//e1"} {
		xid := int32(40 + i)
		r.frame(jstr(be32(be32(nil, xid), int32(mw.OpGetAllChildrenNumber)), p))
		body := r.readFrame()
		code := int32(binary.BigEndian.Uint32(body[12:]))
		n := int32(-1)
		if code == 0 {
			n = int32(binary.BigEndian.Uint32(body[16:]))
		}
		out = append(out, fmt.Sprintf("getAllChildrenNumber %q: code %d count %d", p, code, n))
	}
	// addauth: the same user twice with two passwords, then whoAmI.
	for _, a := range []string{"ada:pw1", "ada:pw2"} {
		body := jstr(be32(be32(be32(nil, -4), int32(mw.OpAuth)), 0), "digest")
		r.frame(jstr(body, a))
		_, code := r.reply()
		out = append(out, fmt.Sprintf("addauth digest %s: code %d", a, code))
	}
	out = append(out, "whoAmI: "+whoAmIRaw(r))
	// A digest auth without a colon.
	r2 := dialAddr(t, addr)
	r2.connect(0, make([]byte, 16), 4000)
	b := jstr(be32(be32(be32(nil, -4), int32(mw.OpAuth)), 0), "digest")
	r2.frame(jstr(b, "bob"))
	_, code := r2.reply()
	out = append(out, fmt.Sprintf("addauth digest bob: code %d", code))
	return out
}

// whoAmIRaw sends whoAmI and returns its identities as sorted
// scheme:user pairs.
func whoAmIRaw(r *raw) string {
	r.frame(be32(be32(nil, 30), int32(mw.OpWhoAmI)))
	body := r.readFrame()
	n := binary.BigEndian.Uint32(body[16:]) // vector<ClientInfo{scheme, user}>
	binary.BigEndian.PutUint32(body[16:], 2*n)
	ids := strs(body[16:]) // flattened scheme, user pairs
	var pairs []string
	for i := 0; i+1 < len(ids); i += 2 {
		pairs = append(pairs, ids[i]+":"+ids[i+1])
	}
	slices.Sort(pairs)
	return strings.Join(pairs, " ")
}

// TestBeyondTheSheetAsZooKeeperRaw: the calls of c918abe byte for byte as
// Apache ZooKeeper 3.8 answers them, on the edges the zkCli.sh test does
// not reach: getEphemerals with a prefix that has blanks around it (ZooKeeper
// trims only to test for "" and "/", then matches the untrimmed prefix),
// with a prefix that ends inside a multi-byte character (ZooKeeper decodes
// it to U+FFFD), and "\x00" (Java's trim drops it: every ephemeral);
// whoAmI after two addauth digest of one user with two passwords
// (ZooKeeper keeps two Ids: digest:ada twice); addauth digest without a
// colon (ZooKeeper's generateDigest takes it as the user).
func TestBeyondTheSheetAsZooKeeperRaw(t *testing.T) {
	want := beyondRawScript(t, realzk.StartT(t))
	got := beyondRawScript(t, startA5(t, "").Addr().String())
	sameLines(t, want, got)
}

// createRaw sends create path (persistent, world:anyone) and returns the
// reply's zxid and error code.
func (r *raw) createRaw(xid int32, path string, flags int32) (int64, int32) {
	r.t.Helper()
	b := be32(be32(nil, xid), int32(mw.OpCreate))
	b = jstr(b, path)
	b = be32(b, 0)                                 // data: empty
	b = be32(b, 1)                                 // one ACL
	b = jstr(jstr(be32(b, 31), "world"), "anyone") // perms all, world:anyone
	b = be32(b, flags)
	r.frame(b)
	for {
		body := r.readFrame()
		if len(body) < 16 {
			r.t.Fatalf("reply of %d bytes", len(body))
		}
		if int32(binary.BigEndian.Uint32(body)) == -1 { // a watch event
			continue
		}
		return int64(binary.BigEndian.Uint64(body[4:])), int32(binary.BigEndian.Uint32(body[12:]))
	}
}
