package server

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"

	"zablab/internal/realzk"
	mw "zablab/mwzookeeper"
)

// saslRequest sends GetSASLRequest{token} with xid and returns the reply's
// header fields and its body (the SetSASLResponse).
func saslRequest(r *raw, xid int32, token []byte) (zxid int64, code int32, body []byte) {
	r.t.Helper()
	b := be32(be32(nil, xid), int32(mw.OpSASL))
	r.frame(append(be32(b, int32(len(token))), token...))
	f := r.readFrame()
	if got := int32(binary.BigEndian.Uint32(f)); got != xid {
		r.t.Fatalf("SASL reply xid %d, want %d", got, xid)
	}
	return int64(binary.BigEndian.Uint64(f[4:])), int32(binary.BigEndian.Uint32(f[12:])), f[16:]
}

// whoAmI returns the connection's identities as scheme:user, sorted.
func whoAmI(r *raw, xid int32) []string {
	r.t.Helper()
	r.frame(be32(be32(nil, xid), int32(mw.OpWhoAmI)))
	body := r.readFrame()
	n := binary.BigEndian.Uint32(body[16:])
	binary.BigEndian.PutUint32(body[16:], 2*n)
	ids := strs(body[16:])
	var pairs []string
	for i := 0; i+1 < len(ids); i += 2 {
		pairs = append(pairs, ids[i]+":"+ids[i+1])
	}
	slices.Sort(pairs)
	return pairs
}

// saslNoUsersScript: a create (so the zxid is not 0), then two SASL
// requests and a ping, as seen by a server without SASL configured.
func saslNoUsersScript(t *testing.T, addr string) []string {
	r := dialAddr(t, addr)
	r.connect(0, make([]byte, 16), 4000)
	r.createRaw(1, "/sasl-zxid", 0)
	var out []string
	for i, tok := range []string{"", "garbage"} {
		zxid, code, body := saslRequest(r, int32(10+i), []byte(tok))
		out = append(out, fmt.Sprintf("sasl %q: zxid %d code %d body %x", tok, zxid, code, body))
	}
	r.request(-2, mw.OpPing, "", false)
	xid, code := r.reply()
	return append(out, fmt.Sprintf("ping after: xid %d code %d", xid, code))
}

// TestSASLWithoutUsersAsZooKeeper: Apache ZooKeeper 3.8 without a JAAS
// Server section answers every SASL request OK, zxid 0, with a null token
// (length -1), and keeps the connection; ours without sasl.users too.
func TestSASLWithoutUsersAsZooKeeper(t *testing.T) {
	want := saslNoUsersScript(t, realzk.StartT(t))
	got := saslNoUsersScript(t, startA5(t, "").Addr().String())
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("ZooKeeper:\n%s\nours:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

// saslLogin runs the DIGEST-MD5 exchange on a fresh connection and
// returns it with the second reply's code and body.
func saslLogin(t *testing.T, addr, user, password string) (*raw, int32, string) {
	r := dialAddr(t, addr)
	r.connect(0, make([]byte, 16), 4000)
	zxid, code, body := saslRequest(r, 1, nil)
	if code != 0 || zxid != 0 || len(body) < 4 {
		t.Fatalf("challenge: zxid %d code %d body %x", zxid, code, body)
	}
	challenge := string(body[4:])
	zxid, code, body = saslRequest(r, 2, []byte(clientResponse(challenge, user, password, "OA6MHXh6VqTrRk")))
	if zxid != 0 {
		t.Errorf("response reply zxid %d, want 0 as ZooKeeper", zxid)
	}
	return r, code, fmt.Sprintf("%x", body)
}

// TestSASLWhoAmI: after DIGEST-MD5 the connection is ("sasl", user), and
// ("super", "") only for zookeeper.superUser; no ACL is involved.
func TestSASLWhoAmI(t *testing.T) {
	addr := startA5(t, "sasl.users=jaasuser:jaas_password,super:super_secret,root:pw\nzookeeper.superUser=root\n").Addr().String()
	for _, tc := range []struct{ user, password, want string }{
		{"jaasuser", "jaas_password", "ip:127.0.0.1 sasl:jaasuser"},
		{"super", "super_secret", "ip:127.0.0.1 sasl:super"},
		{"root", "pw", "ip:127.0.0.1 sasl:root super:"},
	} {
		r, code, body := saslLogin(t, addr, tc.user, tc.password)
		if code != 0 || !strings.HasPrefix(body, fmt.Sprintf("%08x%x", 40, "rspauth=")) {
			t.Errorf("%s: code %d body %s; want 0 and rspauth", tc.user, code, body)
			continue
		}
		if got := strings.Join(whoAmI(r, 3), " "); got != tc.want {
			t.Errorf("%s: whoAmI %q, want %q", tc.user, got, tc.want)
		}
	}
}

// TestSASLBadPassword: AuthFailed with a null SetSASLResponse, then the
// server closes the connection, as ZooKeeper.
func TestSASLBadPassword(t *testing.T) {
	addr := startA5(t, "sasl.users=jaasuser:jaas_password\n").Addr().String()
	r, code, body := saslLogin(t, addr, "jaasuser", "wrong")
	if code != int32(mw.CodeOf(mw.ErrAuthFailed)) || body != "ffffffff" || !r.closed() {
		t.Errorf("code %d body %s; want -115, ffffffff and the connection closed", code, body)
	}
}
