package server

import (
	"net"
	"testing"

	"zablab/internal/realzk"
	mw "zablab/mwzookeeper"
)

// authRaw connects a raw client to addr, sends an auth packet for scheme
// (xid -4, as the Java client) and returns the answer's error code and
// whether the server then closed the connection.
func authRaw(t *testing.T, addr, scheme string) (int32, bool) {
	t.Helper()
	ta, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	r := dialRaw(t, ta)
	r.connect(0, make([]byte, 16), 4000)
	body := jstr(be32(be32(be32(nil, -4), int32(mw.OpAuth)), 0), scheme)
	r.frame(jstr(body, "anyone"))
	xid, code := r.reply()
	if xid != -4 {
		t.Fatalf("auth %s: reply xid %d, want -4", scheme, xid)
	}
	return code, r.closed()
}

// TestAuthWorldZK is the control for TestPingsAndAuth's failed schemes:
// Apache ZooKeeper 3.8 has no provider for "world" (only ip and digest),
// answers AuthFailed and closes the connection.
func TestAuthWorldZK(t *testing.T) {
	addr := realzk.StartT(t)
	if code, closed := authRaw(t, addr, "world"); code != int32(mw.CodeOf(mw.ErrAuthFailed)) || !closed {
		t.Errorf("ZooKeeper, world auth: code %d, closed %v", code, closed)
	}
	if code, closed := authRaw(t, addr, "x509"); code != int32(mw.CodeOf(mw.ErrAuthFailed)) || !closed {
		t.Errorf("ZooKeeper, x509 auth: code %d, closed %v", code, closed)
	}
}
