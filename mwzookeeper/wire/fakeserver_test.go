package wire

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"zablab/internal/ports"
	mw "zablab/mwzookeeper"
)

// A fakeServer answers a real client with nothing but this package: every
// request the client sends is decoded, compared with the exchange the test
// expects next, and answered with that exchange's events and response.

const (
	fakeSession = 0x77
	fakeZxid    = 0x100000010
	exchangeMax = 10 * time.Second // how long either side waits for the other
)

var fakePassword = []byte("0123456789abcdef")

// exchange is one request the client must send and what the server answers.
type exchange struct {
	want    *mw.Request                     // the decoded request (Xid is not compared)
	check   func(*mw.Request, []byte) error // instead of want: checks the request and its body
	wantErr error                           // what DecodeRequest must return
	events  []mw.WatchEvent                 // sent before the reply
	resp    mw.Response                     // the reply (for ErrUnknownOp: Unimplemented)
}

type fakeServer struct {
	addr     string
	ln       net.Listener
	steps    chan exchange
	results  chan error // one per exchange: nil or what was wrong
	connects chan ConnectRequest
	done     chan struct{}

	mu   sync.Mutex
	conn net.Conn // the connection being served, closed at cleanup
}

func startFakeServer(t *testing.T) *fakeServer {
	t.Helper()
	p, err := ports.Free(1)
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(p[0]))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen on %s: %v", addr, err)
	}
	s := &fakeServer{addr: addr, ln: ln, steps: make(chan exchange, 1), results: make(chan error, 1),
		connects: make(chan ConnectRequest, 4), done: make(chan struct{})}
	go s.acceptLoop()
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		if s.conn != nil {
			s.conn.Close()
		}
		s.mu.Unlock()
		<-s.done
	})
	return s
}

func (s *fakeServer) acceptLoop() {
	defer close(s.done)
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conn = conn
		s.mu.Unlock()
		s.serve(conn)
		conn.Close()
	}
}

func (s *fakeServer) serve(conn net.Conn) {
	body, err := ReadFrame(conn, nil, MaxFrame)
	if err != nil {
		return
	}
	cr, err := DecodeConnect(body)
	if err != nil {
		s.report(fmt.Errorf("connect: %w", err))
		return
	}
	select {
	case s.connects <- cr:
	default: // a client reconnecting again and again after a failure
	}
	out := AppendConnectResponse(nil, ConnectResponse{Timeout: cr.Timeout, SessionID: fakeSession,
		Password: fakePassword}, cr.HasReadOnly)
	var req mw.Request
	for {
		if _, err := conn.Write(out); err != nil {
			return
		}
		if body, err = ReadFrame(conn, body, MaxFrame); err != nil {
			return
		}
		h, derr := DecodeRequest(body, &req)
		out = out[:0]
		if derr == nil && h.Op == mw.OpPing {
			out = AppendError(out, XidPing, fakeZxid, nil)
			continue
		}
		var ex exchange
		select {
		case ex = <-s.steps:
		case <-time.After(exchangeMax):
			s.report(fmt.Errorf("the client sent %v (xid %d) where the test expected nothing", h.Op, h.Xid))
			return
		}
		s.report(ex.verify(&req, body, derr))
		switch {
		case errors.Is(derr, ErrUnknownOp):
			out = AppendError(out, h.Xid, fakeZxid, mw.ErrUnimplemented)
		case errors.Is(derr, ErrEmptyACL):
			out = AppendError(out, h.Xid, fakeZxid, mw.ErrInvalidACL)
		case derr != nil:
			return // a malformed frame closes the connection
		default:
			for _, ev := range ex.events {
				out = AppendEvent(out, ev)
			}
			out = AppendReply(out, h, &ex.resp)
		}
	}
}

func (s *fakeServer) report(err error) {
	select {
	case s.results <- err:
	case <-time.After(exchangeMax):
	}
}

func (ex *exchange) verify(req *mw.Request, body []byte, derr error) error {
	if ex.wantErr != nil || derr != nil {
		if !errors.Is(derr, ex.wantErr) {
			return fmt.Errorf("DecodeRequest error %v, want %v", derr, ex.wantErr)
		}
		return nil
	}
	if ex.check != nil {
		return ex.check(req, body)
	}
	got := *req
	got.Xid = 0
	if d := cmp.Diff(withOpenACL(*ex.want), got); d != "" {
		return fmt.Errorf("decoded request differs (-want +got):\n%s", d)
	}
	return nil
}

// do queues ex, runs the client call, and fails the test if the server
// decoded something else or saw nothing.
func (s *fakeServer) do(t *testing.T, what string, ex exchange, call func()) {
	t.Helper()
	s.steps <- ex
	call()
	select {
	case err := <-s.results:
		if err != nil {
			t.Errorf("%s: %v", what, err)
		}
	case <-time.After(exchangeMax):
		select {
		case <-s.steps: // not taken: drop it so the next exchange lines up
		default:
		}
		t.Errorf("%s: the server received no request", what)
	}
}
