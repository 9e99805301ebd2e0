package server

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	mw "zablab/mwzookeeper"
	"zablab/mwzookeeper/wire"
)

// raw is a hand-rolled client that writes ZooKeeper frames byte by byte, for
// tests that need to see the exact order of replies and events or to send
// what a real client never would.
type raw struct {
	t  testing.TB
	nc net.Conn
	br *bufio.Reader
}

func dialRaw(t testing.TB, addr net.Addr) *raw {
	t.Helper()
	nc, err := net.DialTimeout("tcp", addr.String(), 5*time.Second)
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	return &raw{t: t, nc: nc, br: bufio.NewReader(nc)}
}

func be32(b []byte, v int32) []byte  { return binary.BigEndian.AppendUint32(b, uint32(v)) }
func be64(b []byte, v int64) []byte  { return binary.BigEndian.AppendUint64(b, uint64(v)) }
func jstr(b []byte, s string) []byte { return append(be32(b, int32(len(s))), s...) }

func (r *raw) frame(body []byte) {
	r.t.Helper()
	if _, err := r.nc.Write(append(be32(nil, int32(len(body))), body...)); err != nil {
		r.t.Fatalf("write: %v", err)
	}
}

// connect sends a ConnectRequest and returns the response's timeout and
// session id.
func (r *raw) connect(session int64, password []byte, timeout int32) (int32, int64, []byte) {
	r.t.Helper()
	r.sendConnect(session, password, timeout, 0)
	body := r.readFrame()
	if len(body) < 20 {
		r.t.Fatalf("connect response of %d bytes", len(body))
	}
	to := int32(binary.BigEndian.Uint32(body[4:]))
	id := int64(binary.BigEndian.Uint64(body[8:]))
	n := binary.BigEndian.Uint32(body[16:])
	return to, id, body[20 : 20+n]
}

// sendConnect sends a ConnectRequest of a client that has seen lastZxid.
func (r *raw) sendConnect(session int64, password []byte, timeout int32, lastZxid int64) {
	r.t.Helper()
	b := be32(nil, 0)
	b = be64(b, lastZxid)
	b = be32(b, timeout)
	b = be64(b, session)
	b = append(be32(b, int32(len(password))), password...)
	r.frame(b)
}

// request sends a request whose body is path (and, for reads, the watch flag).
func (r *raw) request(xid int32, op mw.OpCode, path string, watch bool) {
	r.t.Helper()
	b := be32(be32(nil, xid), int32(op))
	if path != "" {
		b = jstr(b, path)
		if op == mw.OpGetData || op == mw.OpExists || op == mw.OpGetChildren {
			b = append(b, map[bool]byte{false: 0, true: 1}[watch])
		}
	}
	r.frame(b)
}

func (r *raw) readFrame() []byte {
	r.t.Helper()
	body, err := wire.ReadFrame(r.br, nil, wire.MaxFrame)
	if err != nil {
		r.t.Fatalf("read frame: %v", err)
	}
	return body
}

// reply reads one reply header: xid and error code.
func (r *raw) reply() (xid int32, code int32) {
	r.t.Helper()
	body := r.readFrame()
	if len(body) < 16 {
		r.t.Fatalf("reply of %d bytes", len(body))
	}
	return int32(binary.BigEndian.Uint32(body)), int32(binary.BigEndian.Uint32(body[12:]))
}

// closed says whether the server closed the connection (EOF within 10 s).
func (r *raw) closed() bool {
	r.nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err := io.Copy(io.Discard, r.br)
	return err == nil // io.Copy returns nil at EOF
}
