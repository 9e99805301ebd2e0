package server

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/mwzookeeper"
	"zablab/mwzookeeper/wire"
)

// conn is one client connection: a reader goroutine (readLoop) that decodes
// and submits requests, and a writer goroutine (writeLoop) that writes
// replies and events in batches.
type conn struct {
	srv    *Server
	nc     net.Conn
	br     *bufio.Reader
	ip     string
	remote string
	log    logrus.FieldLogger
	done   chan struct{} // closed by close
	wake   chan struct{} // the writer has something to do

	session  atomic.Int64 // 0 until the handshake succeeded
	timeout  atomic.Int64 // ms: negotiated session timeout (before: handshake time)
	lastRecv atomic.Int64 // unix ns of the last frame read, moved on by the time the reader stalled
	stalled  atomic.Bool  // the reader waits for room (back pressure): the reaper spares it
	recv     atomic.Int64
	sent     atomic.Int64
	isWord   atomic.Bool // a four-letter word, not a client
	readOnly atomic.Bool // a read-only session, answered without the Service (readonly.go)

	pingReq mwzookeeper.Request // never changed after the handshake: the Service may keep it

	mu       sync.Mutex
	room     sync.Cond // signalled when a slot is freed or the connection closes
	pending  []*slot   // requests in order; pending[head:] wait for replies
	head     int
	free     []*slot
	out      []byte       // frames ready to write
	spare    []byte       // the writer's last buffer, for reuse
	queued   int          // bytes in out and in finished slots
	held     []heldEvent  // watch events waiting for a read's reply (see event)
	timed    []timedReply // measured writes whose replies are in out (stages.go)
	spareTmd []timedReply // the writer's last timed, for reuse
	seq      uint64       // sequence number of the newest slot
	zxid     int64        // newest zxid sent (at first the connect's): the header of pings
	draining bool         // no more requests; close once everything owed is written
	closed   bool
	// ids is who the client is authenticated as (auth.go), the ip
	// identity first. Only the reading goroutine changes it, by replacing
	// the slice under mu: requests keep the one they were given, and
	// event reads it under mu.
	ids []mwzookeeper.ID
	// digest is the connection's DIGEST-MD5 exchange (sasl.go), made by
	// its first SASL request; only the reading goroutine uses it.
	digest *digestServer
}

func newConn(s *Server, nc net.Conn, ip string) *conn {
	c := &conn{srv: s, nc: nc, br: bufio.NewReaderSize(nc, 64<<10), ip: ip,
		remote: nc.RemoteAddr().String(), done: make(chan struct{}), wake: make(chan struct{}, 1)}
	c.log = s.log.WithField("client", c.remote)
	c.ids = []mwzookeeper.ID{{Scheme: "ip", ID: ip}}
	c.room.L = &c.mu
	c.timeout.Store(s.cfg.MaxSessionTimeout.Milliseconds())
	c.lastRecv.Store(time.Now().UnixNano())
	return c
}

// readLoop answers a four-letter word, or shakes hands and then reads
// requests until the connection closes.
func (c *conn) readLoop() {
	defer c.srv.readers.Done()
	first, err := c.br.Peek(4)
	if err != nil {
		c.closeQuiet("closed before its first frame: " + errText(err))
		return
	}
	if word, ok := wire.IsFourLetterWord([4]byte(first)); ok {
		c.fourLetterWord(word)
		return
	}
	adm := c.srv.awaitAdmission(c.done, c.srv.ro != nil)
	if adm == refused {
		if !c.srv.served.Load() && c.srv.toldNot.CompareAndSwap(false, true) {
			// Refusals are routine in an election, so they are debug
			// lines; a replica that never served is worth one warning.
			c.srv.log.Warn("a client was refused: this replica has not served since it started: it is still " +
				"electing a leader, or its Service never calls Host.Serving(true), which it does when its Zab peer " +
				"reports LEADING or FOLLOWING (the Status callback: callback.Status in callback.go of the stubs, A5.1)")
		}
		c.closeQuiet("refused: the replica is not serving (no leader within " + leaderWait.String() + ")")
		return
	}
	if c.handshake(adm == readOnlyOnly) {
		c.serve()
	}
}

// handshake reads the connect request and creates or resumes the session
// through the Service; in read-only mode (readOnly) a read-only client
// connects without it, and a read-write one waits for a leader.
func (c *conn) handshake(readOnly bool) bool {
	body, err := wire.ReadFrame(c.br, nil, wire.MaxFrame)
	if err != nil {
		c.readFailed(err)
		return false
	}
	c.touch()
	creq, err := wire.DecodeConnect(body)
	if err != nil {
		c.close("bad connect request: " + err.Error())
		return false
	}
	if readOnly && creq.ReadOnly {
		// No quorum to catch up from: a client ahead is refused at once.
		if err := c.behind(creq.LastZxidSeen); err != nil {
			c.close("refused: " + err.Error())
			return false
		}
		return c.connectReadOnly(creq)
	}
	if readOnly && !c.srv.awaitServing(c.done) {
		// ZooKeeper's read-only server drops it at once; waiting as for a leader costs no more.
		c.closeQuiet("refused: a read-write client, and the replica is read-only (no leader within " + leaderWait.String() + ")")
		return false
	}
	req := &mwzookeeper.Request{Op: mwzookeeper.OpCreateSession,
		Timeout: c.srv.cfg.Negotiate(creq.Timeout), LastZxid: creq.LastZxidSeen}
	if creq.SessionID != 0 {
		req.Op, req.Session = mwzookeeper.OpReconnect, creq.SessionID
		req.Password = append([]byte(nil), creq.Password...)
	}
	// ConnectionLoss is a leader change that ate the answer, or a replica
	// behind the zxid the client has seen (it catches up in milliseconds
	// after an election). The client still waits for the answer, so ask
	// again, for up to leaderWait, rather than close: a closed handshake
	// costs the client its reconnect back-off (go-zookeeper sleeps a second
	// once it has tried every server).
	since := time.Now()
	for {
		lost := c.srv.lost.Load()
		resp, ok := c.connectOnce(req)
		if !ok {
			return false
		}
		if !errors.Is(resp.Err, mwzookeeper.ErrConnectionLoss) || time.Since(since) >= leaderWait {
			return c.connected(req, creq, resp)
		}
		changed, ok := c.srv.pauseBeforeRetry(lost, c.done)
		if !ok {
			return c.connected(req, creq, resp)
		}
		// A client that gave up (its connect timeout is shorter than
		// ours) must not get its session moved here behind its back.
		if c.clientLeft() {
			c.closeQuiet("the client left during the handshake")
			return false
		}
		if changed {
			since = time.Now() // a new leader: the replica may be behind it for a moment again
		}
		c.log.WithError(resp.Err).Debug("handshake: connecting again")
	}
}

// behind refuses a session to a client that has seen a zxid this replica
// has not applied, as ZooKeeper does (it closes the connection, and the
// client tries another server): its reads here could show older state
// than it read before (kazoo keeps its last zxid across an expired
// session). As ConnectionLoss, the read-write handshake asks again while
// it waits for a replica behind (a follower catching up after an
// election). A read-write reconnect is checked by the Service; a Service
// that does not report its zxid (no Reporter) is not asked.
func (c *conn) behind(zxid int64) error {
	rep, ok := c.srv.svc.(mwzookeeper.Reporter)
	if zxid <= 0 || !ok {
		return nil
	}
	if applied := rep.Stats().Zxid; zxid > applied {
		return fmt.Errorf("%w: the client has seen zxid %#x, and this replica applied only up to %#x",
			mwzookeeper.ErrConnectionLoss, zxid, applied)
	}
	return nil
}

// connectOnce answers a connect request once: a new session of a client
// ahead of this replica is refused here, anything else is the Service's.
func (c *conn) connectOnce(req *mwzookeeper.Request) (mwzookeeper.Response, bool) {
	if req.Op == mwzookeeper.OpCreateSession {
		if err := c.behind(req.LastZxid); err != nil {
			return mwzookeeper.Response{Err: err}, true
		}
	}
	return c.submitConnect(req)
}

// clientLeft says whether the client closed its side while the handshake
// waited: a read that ends at once with EOF (or an error other than the
// deadline) says so. A peek consumes nothing: a request sent ahead of the
// connect answer stays for the reader, and its presence says the client is
// still there.
func (c *conn) clientLeft() bool {
	if err := c.nc.SetReadDeadline(time.Now().Add(time.Millisecond)); err != nil {
		return true
	}
	_, err := c.br.Peek(1)
	if derr := c.nc.SetReadDeadline(time.Time{}); derr != nil {
		return true
	}
	var ne net.Error
	return err != nil && !(errors.As(err, &ne) && ne.Timeout())
}

// submitConnect hands the connect request to the Service and waits for its
// answer; false when the connection closed meanwhile.
func (c *conn) submitConnect(req *mwzookeeper.Request) (mwzookeeper.Response, bool) {
	ch := make(chan mwzookeeper.Response, 1)
	c.srv.svc.Submit(req, func(r *mwzookeeper.Response) {
		cp := *r
		cp.Password = append([]byte(nil), r.Password...)
		ch <- cp
	})
	select {
	case resp := <-ch:
		return resp, true
	case <-c.done:
		return mwzookeeper.Response{}, false
	}
}

// connected answers the connect request with the Service's verdict.
func (c *conn) connected(req *mwzookeeper.Request, creq wire.ConnectRequest, resp mwzookeeper.Response) bool {
	log := c.log.WithField("session", fmt.Sprintf("0x%x", req.Session))
	switch {
	case resp.Err == nil:
	case errors.Is(resp.Err, mwzookeeper.ErrSessionExpired), errors.Is(resp.Err, mwzookeeper.ErrUnknownSession),
		errors.Is(resp.Err, mwzookeeper.ErrAuthFailed):
		// ZooKeeper's answer to a session that is gone or a wrong password:
		// timeout 0 and session 0, then close.
		log.WithError(resp.Err).Info("reconnect refused: session expired")
		c.send(wire.AppendConnectResponse(nil, wire.ConnectResponse{Password: make([]byte, 16)}, creq.HasReadOnly))
		c.drain()
		return false
	case errors.Is(resp.Err, mwzookeeper.ErrUnimplemented):
		// A Service still at its TODO (a student's): a warning, where a
		// line among the info lines each second was easy to miss.
		c.shut(logrus.WarnLevel, fmt.Sprintf("connect refused (session 0x%x): %v", req.Session, resp.Err))
		return false
	default:
		c.close(fmt.Sprintf("connect refused (session 0x%x): %v", req.Session, resp.Err))
		return false
	}
	id, t := resp.Session, resp.Timeout
	if id == 0 {
		id = req.Session
	}
	if t <= 0 {
		t = req.Timeout
	}
	c.pingReq = mwzookeeper.Request{Op: mwzookeeper.OpPing, Session: id}
	c.timeout.Store(int64(t))
	// The replies the server makes (pings, whoAmI) carry the newest zxid
	// the connection has sent; before any other reply that is the
	// connect's (a new session's own zxid), as ZooKeeper 3.8 sends the
	// zxid it has processed there, not 0.
	c.mu.Lock()
	c.zxid = max(c.zxid, resp.Zxid)
	c.mu.Unlock()
	frame := wire.AppendConnectResponse(nil, wire.ConnectResponse{Timeout: t, SessionID: id, Password: resp.Password}, creq.HasReadOnly)
	if !c.srv.bind(c, id, frame) {
		c.closeQuiet("refused: the replica stopped serving during the handshake")
		return false
	}
	c.wakeWriter()
	log.WithField("timeout_ms", t).Debug("session connected")
	return true
}

// serve reads, decodes and submits requests until the connection closes or
// the session ends.
func (c *conn) serve() {
	for {
		s := c.takeSlot()
		if s == nil {
			return
		}
		body, err := wire.ReadFrame(c.br, s.frame, wire.MaxFrame)
		if err != nil {
			c.putBack(s)
			c.readFailed(err)
			return
		}
		s.frame = body
		s.start = c.touch()
		if c.isDraining() {
			c.putBack(s)
			return
		}
		if !c.dispatch(s, body) {
			return
		}
	}
}

// dispatch hands one request to the Service or answers it here; false:
// stop reading.
func (c *conn) dispatch(s *slot, body []byte) bool {
	h, err := wire.DecodeRequest(body, &s.req)
	s.hdr = h
	switch {
	case h.Op == mwzookeeper.OpAuth:
		return c.authRequest(s, body)
	case h.Op == mwzookeeper.OpSASL && err == nil:
		return c.sasl(s)
	case err != nil:
		return c.undecodable(s, h, err)
	case !c.srv.beyond && beyondOnly(&s.req):
		c.enqueue(s)
		s.completeErr(fmt.Errorf("%w: %s %q: this Service does not do ZooKeeper's calls beyond the sheet",
			mwzookeeper.ErrUnimplemented, h.Op, s.req.Path))
	case h.Op == mwzookeeper.OpWhoAmI:
		c.enqueue(s)
		s.complete(&mwzookeeper.Response{Identity: c.identities()})
	case h.Op == mwzookeeper.OpPing || h.Xid == wire.XidPing:
		if !c.readOnly.Load() {
			c.srv.svc.Submit(&c.pingReq, noReply) // liveness for the Service
		}
		c.enqueue(s)
		s.completeErr(nil)
	default:
		s.req.Op, s.req.Session, s.req.Xid, s.req.Auth = h.Op, c.pingReq.Session, h.Xid, c.ids
		if c.srv.cfg.SASLUsers == nil {
			withoutSASL(&s.req)
		}
		if c.readOnly.Load() {
			return c.dispatchReadOnly(s)
		}
		c.enqueue(s)
		c.srv.svc.Submit(&s.req, s.reply)
		if h.Op == mwzookeeper.OpCloseSession {
			c.drain() // closes once the reply is written
			return false
		}
	}
	return true
}

func noReply(*mwzookeeper.Response) {}

// undecodable answers a request whose body did not decode, or closes the
// connection; false: stop reading. It is a function of its own so that the
// target errors.As needs is allocated only for such a request, not for
// every one.
func (c *conn) undecodable(s *slot, h wire.Header, err error) bool {
	var emptyACL *wire.EmptyACLError
	switch {
	case errors.As(err, &emptyACL):
		c.enqueue(s)
		s.complete(invalidACL(&s.req, emptyACL.Op))
	case errors.Is(err, wire.ErrUnknownOp) || errors.Is(err, wire.ErrOpNotInMulti):
		c.enqueue(s)
		s.completeErr(c.refusedOp(h.Op, err))
	case errors.Is(err, wire.ErrBadBody) && h.Op != mwzookeeper.OpSASL:
		// ZooKeeper 3.8 answers a body cut short MarshallingError and
		// keeps the connection (a SASL token cut short closes it there).
		c.log.WithError(err).Debug("request body does not fit its record: answered MarshallingError")
		c.enqueue(s)
		s.completeErr(fmt.Errorf("%w: %v", mwzookeeper.ErrMarshallingError, err))
	default:
		c.putBack(s)
		c.close("malformed request: " + err.Error())
		return false
	}
	return true
}

// authRequest answers an auth packet; false: stop reading. ZooKeeper
// answers AuthFailed, then closes the connection; a packet it cannot read
// (cut short) closes the connection without an answer.
func (c *conn) authRequest(s *slot, body []byte) bool {
	err := c.auth(body)
	if errors.Is(err, errAuthCut) {
		c.putBack(s)
		c.close("malformed auth packet: " + err.Error())
		return false
	}
	c.enqueue(s)
	s.completeAuth(err)
	if err != nil {
		c.drain()
		return false
	}
	return true
}

// refusedOp is ZooKeeper's answer to a request it reads but does not take;
// the connection stays, as do the client's requests in flight on it.
func (c *conn) refusedOp(op mwzookeeper.OpCode, err error) error {
	switch {
	case errors.Is(err, wire.ErrOpNotInMulti): // its "Invalid type of op"
		return fmt.Errorf("%w: %v", mwzookeeper.ErrMarshallingError, err)
	case op == mwzookeeper.OpReconfig:
		// Where reconfiguration is off (its default): clients know this
		// code, not Unimplemented, for reconfig.
		return mwzookeeper.ErrReconfigDisabled
	}
	c.log.WithField("op", int32(op)).Debug("unknown opcode: answered Unimplemented")
	return mwzookeeper.ErrUnimplemented
}

// invalidACL is ZooKeeper's answer to a create with an empty ACL list: a
// plain InvalidACL, or a failed multi whose op at index bad failed. The
// Service never sees the request; the ops before bad report success,
// although the Service might have failed one of them first.
func invalidACL(req *mwzookeeper.Request, bad int) *mwzookeeper.Response {
	resp := &mwzookeeper.Response{Err: fmt.Errorf("%w: %s %q with an empty ACL list",
		mwzookeeper.ErrInvalidACL, req.Op, req.Path)}
	if req.Op != mwzookeeper.OpMulti {
		return resp
	}
	resp.Results = make([]mwzookeeper.OpResult, len(req.Ops))
	for i, op := range req.Ops {
		resp.Results[i].Op = op.Op
		switch {
		case i == bad:
			resp.Results[i].Err = mwzookeeper.ErrInvalidACL
			resp.Err = fmt.Errorf("%w: create %q with an empty ACL list", mwzookeeper.ErrInvalidACL, op.Path)
		case i > bad:
			resp.Results[i].Err = mwzookeeper.ErrRuntimeInconsistency
		}
	}
	return resp
}

// touch records that the client sent something.
func (c *conn) touch() time.Time {
	now := time.Now()
	c.lastRecv.Store(now.UnixNano())
	c.recv.Add(1)
	c.srv.stats.received.Add(1)
	return now
}

func (c *conn) isDraining() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.draining
}

// readFailed closes the connection after a read error, saying why.
func (c *conn) readFailed(err error) {
	switch {
	case errors.Is(err, io.EOF):
		c.closeQuiet("the client closed the connection")
	case errors.Is(err, net.ErrClosed):
		c.closeQuiet("closed")
	case errors.Is(err, io.ErrUnexpectedEOF):
		c.close("half-sent frame: " + err.Error())
	case errors.Is(err, wire.ErrTooLarge), errors.Is(err, wire.ErrMalformed):
		c.close("bad frame: " + err.Error())
	default:
		c.closeQuiet("read failed: " + errText(err))
	}
}

// close closes the connection and logs why at INFO; closeQuiet at DEBUG,
// for the ordinary endings.
func (c *conn) close(reason string)      { c.shut(logrus.InfoLevel, reason) }
func (c *conn) closeQuiet(reason string) { c.shut(logrus.DebugLevel, reason) }

func (c *conn) shut(level logrus.Level, reason string) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	close(c.done)
	c.mu.Unlock()
	c.room.Broadcast()
	c.nc.Close()
	c.srv.unregister(c)
	log := c.log
	if id := c.session.Load(); id != 0 {
		log = log.WithField("session", fmt.Sprintf("0x%x", id))
	}
	switch msg := "connection closed: " + reason; level {
	case logrus.WarnLevel:
		log.Warn(msg)
	case logrus.InfoLevel:
		log.Info(msg)
	default:
		log.Debug(msg)
	}
}
