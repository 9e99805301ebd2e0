package server

import (
	"bufio"
	"encoding/binary"
	"fmt"
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

// multiCreateOp is a multi's create op: its MultiHeader and its request.
func multiCreateOp(typ int32, path string, flags int32) []byte {
	b := append(be32(nil, typ), 0) // MultiHeader{typ, done false, -1}
	b = be32(b, -1)
	b = be32(jstr(b, path), 0)
	b = be32(b, 1)
	b = jstr(jstr(be32(b, 31), "world"), "anyone")
	b = be32(b, flags)
	if typ == 21 {
		b = be64(b, 60000)
	}
	return b
}

// multiDeleteOp is a multi's delete op of any version.
func multiDeleteOp(path string) []byte {
	return be32(jstr(be32(append(be32(nil, 2), 0), -1), path), -1)
}

// rawMulti sends a multi of the given ops and describes the reply: the
// header's error, and each result's type and error (a create2 result is a
// path and a stat, a create result a path only).
func rawMulti(r *raw, xid int32, ops ...[]byte) string {
	b := be32(be32(nil, xid), 14) // multi
	for _, op := range ops {
		b = append(b, op...)
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
		case 2:
			out += fmt.Sprintf("; result type 2 err %d", code)
		default:
			return out + fmt.Sprintf("; result type %d: not read further", rt)
		}
	}
	return out
}
