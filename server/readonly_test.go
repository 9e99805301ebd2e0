package server

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"zablab/internal/wait"
	mw "zablab/mwzookeeper"
	"zablab/mwzookeeper/wire"
	"zablab/solutions/aufgabe5"
)

// restart starts peer i (0-based) again on its old address, from its
// properties and data.
func (e *ensemble) restart(t *testing.T, i int) {
	t.Helper()
	ln, err := net.Listen("tcp", e.addrs[i])
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(e.props[i], e.f, Options{Listener: ln, Logger: testLogger().WithField("peer", i+1)})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop() })
	e.srv[i] = s
}

// connectReadOnly sends a ConnectRequest with the readOnly byte set to
// readOnly and returns the response's timeout, session, password and
// readOnly byte.
func (r *raw) connectReadOnly(session int64, password []byte, timeout int32, readOnly bool) (int32, int64, []byte, bool) {
	r.t.Helper()
	b := be64(be32(nil, 0), 0)
	b = be64(be32(b, timeout), session)
	b = append(be32(b, int32(len(password))), password...)
	r.frame(append(b, map[bool]byte{false: 0, true: 1}[readOnly]))
	body := r.readFrame()
	n := int(binary.BigEndian.Uint32(body[16:]))
	if len(body) != 20+n+1 {
		r.t.Fatalf("connect response of %d bytes, want %d (with the readOnly byte)", len(body), 20+n+1)
	}
	return int32(binary.BigEndian.Uint32(body[4:])), int64(binary.BigEndian.Uint64(body[8:])),
		body[20 : 20+n], body[20+n] == 1
}

// roReply sends a request and returns its reply's error code and body.
func (r *raw) roReply(xid int32, op mw.OpCode, path string) (int32, []byte) {
	r.t.Helper()
	r.request(xid, op, path, false)
	body := r.readFrame()
	if len(body) < 16 || int32(binary.BigEndian.Uint32(body)) != xid {
		r.t.Fatalf("%s %q: reply %x, want xid %d", op, path, body, xid)
	}
	return int32(binary.BigEndian.Uint32(body[12:])), body[16:]
}

// TestReadOnlyMode: with readonlymode.enabled, a peer whose two partners
// stopped serves read-only clients after ZooKeeper's 2 s: readOnly=true in
// the connect response, reads from its last state, NotReadOnly (-119) for
// writes and sync, pings answered, isro "ro"; a read-write client is
// refused; when the partners come back the read-only connection is
// closed and isro says "rw" again.
func TestReadOnlyMode(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-server ensemble and waits for read-only mode")
	}
	e := startEnsembleWith(t, 3, aufgabe5.New, "readonlymode.enabled=true\n4lw.commands.whitelist=*\n")
	c := zkClient(t, 3*time.Second, e.addrs[0])
	if _, err := c.Create("/ro", []byte("v"), 0, acl); err != nil {
		t.Fatal(err)
	}
	c.Close()
	addr := e.srv[0].Addr()
	if w := fourLetter(t, addr, "isro"); w != "rw" {
		t.Fatalf("isro while serving = %q, want rw", w)
	}
	// The peer keeps serving while a partner that does not lead is
	// stopped; it stops (and its 2 s begin) only with the second stop.
	first, last := e.srv[1], e.srv[2]
	if modeLine(fourLetter(t, first.Addr(), "srvr"), "leader") {
		first, last = last, first
	}
	first.Stop()
	stopped := time.Now()
	last.Stop()
	wait.For(t, "isro saying ro", 15*time.Second, func() bool { return fourLetter(t, addr, "isro") == "ro" })
	if d := time.Since(stopped); d < 2*time.Second {
		t.Errorf("read-only mode after %v, before ZooKeeper's max(2 s, tickTime)", d)
	}
	if !modeLine(fourLetter(t, addr, "srvr"), "read-only") {
		t.Errorf("srvr in read-only mode:\n%s", fourLetter(t, addr, "srvr"))
	}
	if got := adminReadOnly(e.srv[0]); got != true {
		t.Errorf("admin is_read_only in read-only mode = %v, want true (isro says ro)", got)
	}
	ro := dialRaw(t, addr)
	to, id, pw, readOnly := ro.connectReadOnly(0, nil, 10000, true)
	if !readOnly || id == 0 || to != 10000 || len(pw) != 16 {
		t.Fatalf("read-only connect: timeout %d, session %#x, password %x, readOnly %v; want 10000, an id, 16 bytes, true",
			to, id, pw, readOnly)
	}
	if code, body := ro.roReply(1, mw.OpGetData, "/ro"); code != 0 || string(body[4:5]) != "v" {
		t.Errorf("getData /ro read-only: code %d, body %x; want 0 and v", code, body)
	}
	if _, code := ro.createRaw(2, "/fred", 0); code != int32(mw.CodeOf(mw.ErrNotReadOnly)) {
		t.Errorf("create read-only: code %d, want %d (NotReadOnly)", code, mw.CodeOf(mw.ErrNotReadOnly))
	}
	if code, _ := ro.roReply(3, mw.OpSync, "/ro"); code != int32(mw.CodeOf(mw.ErrNotReadOnly)) {
		t.Errorf("sync read-only: code %d, want NotReadOnly", code)
	}
	if code, _ := ro.roReply(wire.XidPing, mw.OpPing, ""); code != 0 {
		t.Errorf("ping read-only: code %d", code)
	}
	rw := dialRaw(t, addr)
	rw.sendConnect(0, make([]byte, 16), 4000, 0)
	if !rw.closed() {
		t.Error("a read-write client was not refused in read-only mode")
	}
	ro = readOnlyReconnect(t, ro, addr, id, pw)

	e.restart(t, 1)
	e.restart(t, 2)
	if err := pingUntilClosed(ro, 20*time.Second); err != nil {
		t.Fatalf("the read-only connection after the quorum came back: %v", err)
	}
	if !e.srv[0].isServing() {
		t.Error("the read-only connection was closed before the replica served again")
	}
	wait.For(t, "isro saying rw", 10*time.Second, func() bool { return fourLetter(t, addr, "isro") == "rw" })
	c = zkClient(t, 3*time.Second, e.addrs[0])
	if _, err := c.Create("/fred", nil, 0, acl); err != nil {
		t.Errorf("create after read-only mode: %v", err)
	}
}

// readOnlyReconnect: a read-only client that comes back with its session
// on a new connection keeps its id and password, and its old connection
// is closed. It returns the new connection.
func readOnlyReconnect(t *testing.T, old *raw, addr net.Addr, id int64, pw []byte) *raw {
	t.Helper()
	again := dialRaw(t, addr)
	_, id2, pw2, readOnly := again.connectReadOnly(id, pw, 10000, true)
	if id2 != id || string(pw2) != string(pw) || !readOnly {
		t.Errorf("read-only reconnect of %#x: session %#x, readOnly %v; want the same session, read-only", id, id2, readOnly)
	}
	if !old.closed() {
		t.Errorf("the old connection of session %#x stayed open after it reconnected", id)
	}
	return again
}

// pingUntilClosed pings every 200 ms, as a client's heartbeat, until the
// server closes r; an error if a ping fails otherwise or d passes first.
func pingUntilClosed(r *raw, d time.Duration) error {
	r.nc.SetDeadline(time.Now().Add(d))
	beat := time.NewTicker(200 * time.Millisecond)
	defer beat.Stop()
	for ; ; <-beat.C {
		r.request(wire.XidPing, mw.OpPing, "", false)
		_, err := wire.ReadFrame(r.br, nil, wire.MaxFrame)
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		}
	}
}

// modeLine says whether srvr's answer names mode.
func modeLine(srvr, mode string) bool {
	return slices.Contains(strings.Split(srvr, "\n"), "Mode: "+mode)
}

// adminReadOnly is what the admin API's is_read_only answers.
func adminReadOnly(s *Server) any {
	for _, c := range adminCommands() {
		if c.names[0] == "is_read_only" {
			return c.answer(s)["read_only"]
		}
	}
	return nil
}
