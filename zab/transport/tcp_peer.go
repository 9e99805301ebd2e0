package transport

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/zab/core"
)

// link is an established, handshaken connection and the reader that may
// already hold bytes that followed the handshake.
type link struct {
	conn net.Conn
	r    *bufio.Reader
	gen  uint64 // acceptor side: the order in which handshakes arrived
}

// peer is the transport's side of one other peer: its send queue and the
// goroutine that keeps a connection to it. The queue outlives connections,
// so messages queued while the peer is away go out after the reconnect.
type peer struct {
	t     *TCP
	id    uint64
	addr  string
	log   logrus.FieldLogger
	queue chan core.Message
	// incoming carries handshaken connections from the peer (acceptor side).
	incoming chan link

	mu     sync.Mutex
	cur    net.Conn // the connection being served, if any; offer closes it
	gen    uint64   // the last generation stamped on an incoming handshake
	newest uint64   // the newest generation offered; older ones are stale

	// Owned by run's goroutine.
	links int           // connections established so far
	carry *core.Message // taken from the queue for a connection that was replaced meanwhile
}

// maxBatch bounds the messages written between two flushes, so a steady
// stream still flushes regularly instead of only when the queue runs dry.
const maxBatch = 1024

// errReplaced ends a connection that a newer one from the same peer replaces.
var errReplaced = errors.New("transport: replaced by a newer connection")

func newPeer(t *TCP, id uint64, addr string) *peer {
	return &peer{
		t:        t,
		id:       id,
		addr:     addr,
		log:      t.log.WithField("peer", id),
		queue:    make(chan core.Message, t.cfg.QueueLen),
		incoming: make(chan link),
	}
}

// run keeps a connection to the peer until Close. The lower id dials, so
// each pair has one connection and neither side has to break a tie.
func (p *peer) run() {
	defer p.t.wg.Done()
	if p.t.cfg.ID < p.id {
		p.dialLoop()
		return
	}
	for {
		select {
		case l := <-p.incoming:
			for l.conn != nil && p.take(l) {
				l, _ = p.serve(l)
			}
		case <-p.t.ctx.Done():
			return
		}
	}
}

// dialLoop dials, serves the connection until it fails, and dials again,
// waiting MinBackoff after a lost connection and doubling the wait, up to
// MaxBackoff, after every failed attempt. A connection that ended in a bad
// frame counts as a failure, so a broken peer is not redialed every 10 ms.
func (p *peer) dialLoop() {
	backoff, failures := p.t.cfg.MinBackoff, 0
	for {
		l, err := p.dial()
		if err == nil {
			failures = 0
			if _, err = p.serve(l); !isProtocolError(err) {
				backoff, err = p.t.cfg.MinBackoff, nil
			}
		} else if p.t.ctx.Err() == nil {
			// A peer that is down fails every attempt: say so once, then
			// only at DEBUG.
			if failures++; failures == 1 {
				p.log.WithError(err).Info("cannot connect, retrying")
			} else {
				p.log.WithError(err).Debug("cannot connect, retrying")
			}
		}
		if !p.t.wait(backoff) {
			return
		}
		if err != nil {
			backoff = min(2*backoff, p.t.cfg.MaxBackoff)
		}
	}
}

// dial connects and runs the dialer's side of the handshake.
func (p *peer) dial() (link, error) {
	d := net.Dialer{Timeout: p.t.cfg.HandshakeTimeout}
	c, err := d.DialContext(p.t.ctx, "tcp", p.addr)
	if err != nil {
		return link{}, err
	}
	if !p.t.track(c) {
		return link{}, net.ErrClosed
	}
	setNoDelay(c)
	c.SetDeadline(time.Now().Add(p.t.cfg.HandshakeTimeout))
	_, err = c.Write(appendHandshake(nil, handshake{from: p.t.cfg.ID, to: p.id}))
	r := bufio.NewReaderSize(c, bufSize)
	var h handshake
	if err == nil {
		h, err = readHandshake(r)
	}
	if err == nil && (h.from != p.id || h.to != p.t.cfg.ID) {
		err = fmt.Errorf("%w: %s answered as peer %d to %d", errHandshake, p.addr, h.from, h.to)
	}
	if err != nil {
		if isProtocolError(err) {
			p.t.stats.rejected.Add(1)
			p.log.WithError(err).WithField("remote", p.addr).Warn("closing connection: bad handshake")
		}
		p.t.untrack(c)
		return link{}, err
	}
	c.SetDeadline(time.Time{})
	return link{conn: c, r: r}, nil
}

// setNoDelay turns Nagle's algorithm off. Go does so by default; saying it
// here keeps the choice visible: the writer batches by itself, and a PING
// or an ACK held back 40 ms would look like a slow peer to the core.
func setNoDelay(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
}

func isProtocolError(err error) bool {
	return errors.Is(err, ErrMalformed) || errors.Is(err, ErrTooLarge) ||
		errors.Is(err, ErrVersion) || errors.Is(err, errHandshake)
}

// stamp numbers an incoming handshake, so that of two connections from
// the same peer racing through their handshakes the later one wins.
func (p *peer) stamp() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gen++
	return p.gen
}

// offer hands a connection from the acceptor to run's goroutine. The
// newest connection wins, and the one being served is closed first: a peer
// that dials again has given up on it (it restarted or saw it fail), and a
// write blocked on it could otherwise wait for TCP's retransmission timeout.
func (p *peer) offer(l link) {
	p.mu.Lock()
	stale := l.gen < p.newest
	old := p.cur
	if !stale {
		p.newest = l.gen
	}
	p.mu.Unlock()
	if stale {
		p.log.WithField("remote", l.conn.RemoteAddr().String()).Info("dropping connection: a newer one arrived")
		p.t.untrack(l.conn)
		return
	}
	if old != nil {
		old.Close()
	}
	select {
	case p.incoming <- l:
	case <-p.t.ctx.Done():
		p.t.untrack(l.conn)
	}
}

// take accepts a connection received from offer unless a newer one has
// been offered since, which is on its way.
func (p *peer) take(l link) bool {
	p.mu.Lock()
	stale := l.gen < p.newest
	p.mu.Unlock()
	if stale {
		p.t.untrack(l.conn)
	}
	return !stale
}

// serve runs one connection until it fails, Close is called, or a newer
// connection replaces it, which serve returns, with the reason it ended.
func (p *peer) serve(l link) (link, error) {
	p.mu.Lock()
	p.cur = l.conn
	p.mu.Unlock()
	if p.links++; p.links > 1 {
		p.t.stats.reconnects.Add(1)
	}
	log := p.log.WithField("remote", l.conn.RemoteAddr().String())
	log.Info("connected")

	readErr := make(chan error, 1)
	stop, readDone := make(chan struct{}), make(chan struct{})
	p.t.wg.Add(1)
	go p.read(l, readErr, stop, readDone)
	next, err := p.write(l, readErr)
	close(stop)
	p.t.untrack(l.conn) // unblocks the reader
	<-readDone

	p.mu.Lock()
	if p.cur == l.conn {
		p.cur = nil
	}
	p.mu.Unlock()
	switch {
	case isProtocolError(err):
		p.t.stats.rejected.Add(1)
		log.WithError(err).Error("closing connection: bad frame")
	case p.t.ctx.Err() != nil:
		log.Debug("connection closed")
	default:
		log.WithError(err).Info("disconnected")
	}
	// offer closes a replaced connection before handing over the new one,
	// so the reader may fail first: superseded tells that case apart.
	if !errors.Is(err, errReplaced) && !p.superseded(l) && p.t.ctx.Err() == nil {
		p.lost()
	}
	return next, err
}

// lost tells the core that the connection to the peer failed: a follower
// whose leader crashed (its sockets closed or reset) goes LOOKING at once
// instead of waiting syncLimit ticks. A connection replaced by a newer one
// from the same peer is not reported: the peer is there.
func (p *peer) lost() {
	select {
	case p.t.recv <- core.Message{Type: core.MsgPeerLost, From: p.id, To: p.t.cfg.ID}:
	case <-p.t.ctx.Done():
	}
}

// read delivers the connection's messages to Recv until the connection
// fails or the writer stops it. The first error goes to errc; a bad frame
// ends the connection, never the process.
func (p *peer) read(l link, errc chan<- error, stop, done chan struct{}) {
	defer p.t.wg.Done()
	defer close(done)
	for {
		f, err := ReadFrame(l.r, p.t.cfg.MaxFrame)
		var m core.Message
		if err == nil {
			m, err = DecodeMessage(f)
		}
		if err == nil && (m.From != p.id || m.To != p.t.cfg.ID) {
			err = fmt.Errorf("%w: %s from %d to %d on the connection of peer %d to %d",
				ErrMalformed, m.Type, m.From, m.To, p.id, p.t.cfg.ID)
		}
		if err != nil {
			errc <- err
			return
		}
		// Blocking here when Recv is full is the backpressure of TCP: the
		// peer's writes slow down and its own queue fills and drops.
		select {
		case p.t.recv <- m:
			p.t.stats.received.Add(1)
		case <-stop:
			return
		case <-p.t.ctx.Done():
			return
		}
	}
}

// write sends queued messages until the connection fails, Close is
// called, or a newer connection arrives (returned with errReplaced).
func (p *peer) write(l link, readErr <-chan error) (link, error) {
	w := bufio.NewWriterSize(l.conn, bufSize)
	var buf []byte
	if m := p.carry; m != nil {
		p.carry = nil
		var err error
		if buf, err = p.writeBatch(w, buf, *m); err != nil {
			return link{}, err
		}
	}
	for {
		select {
		case m := <-p.queue:
			if p.superseded(l) {
				// offer has closed this connection for a newer one: keep m
				// for that one instead of losing it on a dead socket.
				p.carry = &m
				return link{}, errReplaced
			}
			var err error
			if buf, err = p.writeBatch(w, buf, m); err != nil {
				return link{}, err
			}
		case err := <-readErr:
			return link{}, err
		case next := <-p.incoming:
			if p.take(next) {
				return next, errReplaced
			}
		case <-p.t.ctx.Done():
			return link{}, net.ErrClosed
		}
	}
}

func (p *peer) superseded(l link) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return l.gen < p.newest
}

// writeBatch writes m and whatever is queued behind it, then flushes once:
// under load many small messages share a syscall, and when idle each one
// goes out at once.
func (p *peer) writeBatch(w *bufio.Writer, buf []byte, m core.Message) ([]byte, error) {
	n := 0
	for {
		var err error
		buf, err = WriteMessage(w, buf, &m, p.t.cfg.MaxFrame)
		switch {
		case errors.Is(err, ErrTooLarge):
			// The receiver would refuse it and close the connection, and
			// every retransmission would do the same: drop it loudly.
			p.t.stats.dropped.Add(1)
			p.log.WithError(err).Error("dropping message")
		case err != nil:
			return buf, err
		default:
			n++
		}
		if cap(buf) > bufSize {
			buf = nil // do not pin the memory of the last SNAP
		}
		if n < maxBatch {
			select {
			case m = <-p.queue:
				continue
			default:
			}
		}
		err = w.Flush()
		if err == nil {
			p.t.stats.sent.Add(uint64(n))
		}
		return buf, err
	}
}
