package transport

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/zab/core"
)

// Defaults of TCPConfig's zero fields.
const (
	DefaultQueueLen         = 4096
	DefaultMinBackoff       = 10 * time.Millisecond
	DefaultMaxBackoff       = time.Second
	DefaultHandshakeTimeout = 5 * time.Second
)

// bufSize is the size of each connection's read and write buffers: large
// enough that a burst of PROPOSEs and ACKs shares one syscall.
const bufSize = 64 << 10

// TCPConfig configures a TCP transport. Zero fields take the defaults.
type TCPConfig struct {
	// ID is this peer's id, as in the properties file's myid.
	ID uint64
	// Listen is the address to listen on; empty means Peers[ID].
	Listen string
	// Listener, if set, is used instead of Listen; the transport closes it.
	// Tests hand in a listener on 127.0.0.1:0 to learn a free port first.
	Listener net.Listener
	// Peers maps every peer's id to its address (peer<i>=host:port). The
	// entry for ID itself, if any, is only the default of Listen.
	Peers map[uint64]string
	// QueueLen bounds each peer's send queue and the receive queue, in
	// messages (DefaultQueueLen).
	QueueLen int
	// Logger receives connection events; nil discards them.
	Logger logrus.FieldLogger
	// MaxFrame is the largest payload sent or accepted (MaxFrame, which is
	// also its upper bound). Every peer must agree on it.
	MaxFrame int
	// MinBackoff and MaxBackoff bound the wait between failed dials
	// (DefaultMinBackoff doubling up to DefaultMaxBackoff).
	MinBackoff, MaxBackoff time.Duration
	// HandshakeTimeout bounds dialing and the handshake exchange
	// (DefaultHandshakeTimeout), so a silent stranger cannot pin a goroutine.
	HandshakeTimeout time.Duration
}

// validate fills in defaults and names the first bad field.
func (c *TCPConfig) validate() error {
	for id, addr := range c.Peers {
		if addr == "" && id != c.ID {
			return fmt.Errorf("%w: Peers[%d]: empty address", ErrConfig, id)
		}
	}
	if c.Listener == nil && c.Listen == "" {
		c.Listen = c.Peers[c.ID]
		if c.Listen == "" {
			return fmt.Errorf("%w: Listen: empty, and Peers has no address for ID %d", ErrConfig, c.ID)
		}
	}
	switch {
	case c.QueueLen < 0:
		return fmt.Errorf("%w: QueueLen: %d is negative", ErrConfig, c.QueueLen)
	case c.MaxFrame < 0 || c.MaxFrame > MaxFrame:
		return fmt.Errorf("%w: MaxFrame: %d is outside 0..%d", ErrConfig, c.MaxFrame, MaxFrame)
	case c.MinBackoff < 0 || c.MaxBackoff < 0 || c.HandshakeTimeout < 0:
		return fmt.Errorf("%w: MinBackoff, MaxBackoff, HandshakeTimeout: negative duration", ErrConfig)
	}
	c.QueueLen = orDefault(c.QueueLen, DefaultQueueLen)
	c.MaxFrame = orDefault(c.MaxFrame, MaxFrame)
	c.MinBackoff = orDefault(c.MinBackoff, DefaultMinBackoff)
	c.MaxBackoff = max(orDefault(c.MaxBackoff, DefaultMaxBackoff), c.MinBackoff)
	c.HandshakeTimeout = orDefault(c.HandshakeTimeout, DefaultHandshakeTimeout)
	if c.Logger == nil {
		l := logrus.New()
		l.SetOutput(io.Discard)
		c.Logger = l
	}
	return nil
}

func orDefault[T int | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// TCP is the Transport of a real deployment: one TCP connection per pair
// of peers, dialed by the lower id. See the package documentation.
type TCP struct {
	cfg   TCPConfig
	ln    net.Listener
	peers map[uint64]*peer // fixed after NewTCP, so Send reads it without a lock
	recv  chan core.Message
	log   logrus.FieldLogger
	stats counters

	ctx    context.Context // cancelled by Close; its Done is the stop signal of every goroutine
	cancel context.CancelFunc
	wg     sync.WaitGroup // every goroutine the transport started

	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]struct{} // open connections, closed by Close to unblock their readers and writers

	closeOnce sync.Once
	closeErr  error
}

// NewTCP listens and starts connecting to the peers with a higher id.
func NewTCP(cfg TCPConfig) (*TCP, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	ln := cfg.Listener
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", cfg.Listen); err != nil {
			return nil, fmt.Errorf("transport: listen on %s: %w", cfg.Listen, err)
		}
	}
	t := &TCP{
		cfg:   cfg,
		ln:    ln,
		peers: make(map[uint64]*peer, len(cfg.Peers)),
		recv:  make(chan core.Message, cfg.QueueLen),
		log:   cfg.Logger,
		conns: make(map[net.Conn]struct{}),
	}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	for id, addr := range cfg.Peers {
		if id != cfg.ID {
			t.peers[id] = newPeer(t, id, addr)
		}
	}
	for _, p := range t.peers {
		t.wg.Add(1)
		go p.run()
	}
	t.wg.Add(1)
	go t.acceptLoop()
	return t, nil
}

// Addr is the address the transport listens on, with the port the kernel
// chose if the configuration asked for port 0.
func (t *TCP) Addr() net.Addr { return t.ln.Addr() }

// Recv implements Transport.
func (t *TCP) Recv() <-chan core.Message { return t.recv }

// Stats returns the counters so far.
func (t *TCP) Stats() Stats { return t.stats.snapshot() }

// Send implements Transport. It never blocks: a full queue means the peer
// is slow or unreachable, and waiting for it would stall the core for
// everyone else.
func (t *TCP) Send(m core.Message) {
	p := t.peers[m.To]
	if p == nil || t.ctx.Err() != nil {
		t.stats.dropped.Add(1)
		t.log.WithField("peer", m.To).Debugf("dropping %s: unknown peer or transport closed", m.Type)
		return
	}
	select {
	case p.queue <- m:
	default:
		t.stats.dropped.Add(1)
		p.log.Debugf("dropping %s: send queue full", m.Type)
	}
}

// Close implements Transport.
func (t *TCP) Close() error {
	t.closeOnce.Do(func() {
		t.mu.Lock()
		t.closed = true
		for c := range t.conns {
			c.Close()
		}
		t.mu.Unlock()
		t.cancel()
		if err := t.ln.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			t.closeErr = fmt.Errorf("transport: close listener: %w", err)
		}
		t.wg.Wait()
		close(t.recv)
	})
	return t.closeErr
}

// track registers an open connection so Close can interrupt it. It
// reports false, and closes c, if the transport is already closed.
func (t *TCP) track(c net.Conn) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		c.Close()
		return false
	}
	t.conns[c] = struct{}{}
	return true
}

// untrack closes c and forgets it.
func (t *TCP) untrack(c net.Conn) {
	c.Close()
	t.mu.Lock()
	delete(t.conns, c)
	t.mu.Unlock()
}

// wait waits d or until Close, and reports whether the transport still runs.
func (t *TCP) wait(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-t.ctx.Done():
		return false
	}
}

func (t *TCP) acceptLoop() {
	defer t.wg.Done()
	backoff := t.cfg.MinBackoff
	for {
		c, err := t.ln.Accept()
		if err != nil {
			if t.ctx.Err() != nil {
				return
			}
			// Out of file descriptors and the like: wait instead of spinning.
			t.log.WithError(err).Warn("accept failed")
			if !t.wait(backoff) {
				return
			}
			backoff = min(2*backoff, t.cfg.MaxBackoff)
			continue
		}
		backoff = t.cfg.MinBackoff
		if !t.track(c) {
			return
		}
		t.wg.Add(1)
		go t.admit(c)
	}
}

// admit runs the acceptor's side of the handshake on c and hands the
// connection to its peer. Only a known peer with a lower id may dial us.
func (t *TCP) admit(c net.Conn) {
	defer t.wg.Done()
	log := t.log.WithField("remote", c.RemoteAddr().String())
	setNoDelay(c)
	c.SetDeadline(time.Now().Add(t.cfg.HandshakeTimeout))
	r := bufio.NewReaderSize(c, bufSize)
	h, err := readHandshake(r)
	var p *peer
	var gen uint64
	if err == nil {
		log = log.WithField("peer", h.from)
		p, err = t.checkIncoming(h)
	}
	if err == nil {
		gen = p.stamp()
		_, err = c.Write(appendHandshake(nil, handshake{from: t.cfg.ID, to: h.from}))
	}
	if err != nil {
		t.stats.rejected.Add(1)
		log.WithError(err).Warn("rejecting connection")
		t.untrack(c)
		return
	}
	c.SetDeadline(time.Time{})
	p.offer(link{conn: c, r: r, gen: gen})
}

// errHandshake is wrapped by handshakes that are well formed but wrong.
var errHandshake = errors.New("transport: handshake refused")

func (t *TCP) checkIncoming(h handshake) (*peer, error) {
	p := t.peers[h.from]
	switch {
	case h.to != t.cfg.ID:
		return nil, fmt.Errorf("%w: peer %d dialed %d, but this is %d", errHandshake, h.from, h.to, t.cfg.ID)
	case p == nil:
		return nil, fmt.Errorf("%w: unknown peer %d", errHandshake, h.from)
	case h.from > t.cfg.ID:
		return nil, fmt.Errorf("%w: peer %d must not dial %d: the lower id dials", errHandshake, h.from, t.cfg.ID)
	}
	return p, nil
}
