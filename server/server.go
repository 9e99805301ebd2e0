package server

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/mwzookeeper"
	"zablab/properties"
	"zablab/zab"
)

// ErrStopped is returned by Start after Stop.
var ErrStopped = errors.New("server: stopped")

// Options tune a Server; the zero value listens on clientPort and logs to
// logrus's standard logger.
type Options struct {
	// Listener, if set, is used instead of listening on clientPort (tests
	// bind port 0 or a port from internal/ports). Stop closes it.
	Listener net.Listener
	// Logger is the peer's logger; nil: logrus's standard logger.
	Logger logrus.FieldLogger
	// Now is the Host's clock; nil: time.Now. Skew is added to it, so a
	// test can run replicas whose clocks disagree.
	Now  func() time.Time
	Skew time.Duration
}

// Server serves one Service to ZooKeeper clients.
type Server struct {
	cfg   Config
	props *properties.Properties
	opts  Options
	log   logrus.FieldLogger
	svc   mwzookeeper.Service
	// beyond: svc does ZooKeeper's calls beyond the sheet (mwzookeeper.Beyond);
	// otherwise the server answers them Unimplemented.
	beyond bool
	host   *host
	start  time.Time
	stats  counters
	board  *zab.StageBoard // the local peer's write stages (stages.go)

	mu      sync.RWMutex
	ln      net.Listener
	serving bool
	resumed chan struct{} // closed when serving starts again: handshakes wait for it (awaitServing)
	waiting atomic.Int32  // handshakes waiting for a leader
	lost    atomic.Int64  // times the replica stopped serving: a handshake sees a leader change by it
	served  atomic.Bool   // the replica served at least once (Host.Serving(true))
	toldNot atomic.Bool   // a refused client was logged while it never served (once)
	// Read-only mode (readonly.go). ro is nil unless the key is on and the
	// Service can read stale; the rest is guarded by mu.
	ro       mwzookeeper.ReadOnly
	readOnly bool          // serving read-only clients
	roReady  chan struct{} // closed when read-only mode starts: read-only handshakes wait for it
	roTimer  *time.Timer   // the wait for read-only mode
	roGen    uint64        // which wait is current
	roNext   int64         // the newest read-only session id
	started  bool
	stopped  bool
	conns    map[*conn]struct{}
	sessions map[int64]*conn // established sessions connected here
	perIP    map[string]int

	http    httpSide       // admin API and /metrics (admin.go)
	readers sync.WaitGroup // accept loop and connection readers: they call Submit
	others  sync.WaitGroup // writers, reaper, four-letter words
	quit    chan struct{}
}

// New reads the server's keys from p and makes, but does not start, a
// Server for the Service f makes. Without o.Listener, clientPort is
// required.
func New(p *properties.Properties, f mwzookeeper.Factory, o Options) (*Server, error) {
	cfg, err := ConfigFromProperties(p, o.Listener == nil)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, fmt.Errorf("%w: no Service factory", ErrConfig)
	}
	log := o.Logger
	if log == nil {
		log = logrus.StandardLogger()
	}
	if _, ok := p.Get("myid"); ok {
		log = log.WithField("peer", peerID(p)) // as Zab's lines name it: "+1" is 1
	}
	s := &Server{cfg: cfg, props: p, opts: o, log: log, svc: f(),
		conns: map[*conn]struct{}{}, sessions: map[int64]*conn{}, perIP: map[string]int{},
		quit: make(chan struct{}), resumed: make(chan struct{}), roReady: make(chan struct{})}
	if b, ok := s.svc.(mwzookeeper.Beyond); ok {
		s.beyond = b.BeyondTheSheet()
	}
	if ro, ok := s.svc.(mwzookeeper.ReadOnly); ok && cfg.ReadOnlyMode {
		s.ro = ro
	} else if cfg.ReadOnlyMode {
		log.Warnf("%s=true ignored: the Service cannot answer reads without a quorum (mwzookeeper.ReadOnly)",
			mwzookeeper.KeyReadOnlyMode)
	}
	s.host = &host{s: s}
	s.stats.init()
	s.board = zab.StageBoardOf(max(s.ID(), 1)) // a lone peer without myid is 1 (zab.Config)
	return s, nil
}

// Config is the configuration the server read.
func (s *Server) Config() Config { return s.cfg }

// Host is the Host the Service was given (for tests and tools).
func (s *Server) Host() mwzookeeper.Host { return s.host }

// Start listens for clients, then starts the Service. Until the Service
// calls Host.Serving(true), client connections are refused (four-letter
// words are answered).
func (s *Server) Start() error {
	s.mu.Lock()
	if s.stopped || s.started {
		s.mu.Unlock()
		return fmt.Errorf("%w: Start called twice or after Stop", ErrStopped)
	}
	s.started = true
	s.mu.Unlock()
	ln := s.opts.Listener
	if ln == nil {
		addr := net.JoinHostPort(s.cfg.ClientPortAddress, strconv.Itoa(s.cfg.ClientPort))
		var err error
		if ln, err = net.Listen("tcp", addr); err != nil {
			key := listenKey(s.props, err, mwzookeeper.KeyClientPort, KeyClientPortAddress)
			return s.props.Errorf(key, ErrListen, "cannot listen on %s: %v", addr, err)
		}
	}
	s.mu.Lock()
	s.ln = ln
	s.start = time.Now()
	s.armReadOnly() // a replica starts without a quorum, as ZooKeeper's peer starts LOOKING
	s.mu.Unlock()
	s.readers.Add(1)
	go s.acceptLoop(ln)
	s.others.Add(1)
	go s.reaper()
	announce, err := s.startHTTP()
	if err == nil {
		err = s.svc.Start(s.props, s.host)
	}
	if err == nil {
		announce()
	}
	if err != nil {
		s.closeNetwork()
		s.readers.Wait()
		close(s.quit)
		s.others.Wait()
		return err
	}
	return nil
}

// Addr is the address clients connect to (nil before Start).
func (s *Server) Addr() net.Addr {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.ln == nil {
		return nil
	}
	return s.ln.Addr()
}

// Stop closes the listener and every connection, stops the Service and
// waits for every goroutine of the server. Sessions are not closed: they
// expire, or their clients reconnect to another server.
func (s *Server) Stop() error {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return nil
	}
	s.stopped = true
	started := s.started
	s.mu.Unlock()
	if !started {
		return nil
	}
	s.closeNetwork()
	s.readers.Wait() // no Submit after Service.Stop
	err := s.svc.Stop()
	close(s.quit)
	s.others.Wait()
	return err
}

func (s *Server) closeNetwork() {
	s.mu.Lock()
	s.serving = false
	s.stopped = true // register refuses from now on
	s.leaveReadOnly()
	if s.ln != nil {
		s.ln.Close()
	}
	s.mu.Unlock()
	s.stopHTTP()
	s.closeAll("server stopping", true)
}

// closeAll closes the client connections that have a session, and with
// handshakes set also those still in their handshake.
func (s *Server) closeAll(reason string, handshakes bool) {
	s.mu.RLock()
	cs := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		// A connection without a session is in its handshake (or a
		// four-letter word): at a leader change the handshake waits for
		// the next leader instead.
		if handshakes || c.session.Load() != 0 {
			cs = append(cs, c)
		}
	}
	s.mu.RUnlock()
	for _, c := range cs {
		c.close(reason)
	}
}

func (s *Server) acceptLoop(ln net.Listener) {
	defer s.readers.Done()
	backoff := 5 * time.Millisecond
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.isStopped() || errors.Is(err, net.ErrClosed) {
				return
			}
			s.log.WithError(err).Warn("accept failed")
			select {
			case <-time.After(backoff):
				backoff = min(2*backoff, time.Second)
			case <-s.quit:
				return
			}
			continue
		}
		backoff = 5 * time.Millisecond
		if c := s.register(nc); c != nil {
			s.readers.Add(1)
			s.others.Add(1)
			go c.readLoop()
			go c.writeLoop()
		}
	}
}

// register admits a new connection, or closes it when its IP has too many.
func (s *Server) register(nc net.Conn) *conn {
	ip := remoteIP(nc)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		nc.Close()
		return nil
	}
	if s.cfg.MaxClientCnxns > 0 && s.perIP[ip] >= s.cfg.MaxClientCnxns {
		nc.Close()
		s.log.WithField("client", nc.RemoteAddr().String()).
			Warnf("too many connections from %s (maxClientCnxns=%d): closed", ip, s.cfg.MaxClientCnxns)
		return nil
	}
	s.perIP[ip]++
	c := newConn(s, nc, ip)
	s.conns[c] = struct{}{}
	return c
}

// unregister forgets a closed connection.
func (s *Server) unregister(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.conns[c]; !ok {
		return
	}
	delete(s.conns, c)
	if s.perIP[c.ip]--; s.perIP[c.ip] <= 0 {
		delete(s.perIP, c.ip)
	}
	if id := c.session.Load(); id != 0 && s.sessions[id] == c {
		delete(s.sessions, id)
	}
}

// bind makes c the connection of session and queues frame, the connect
// response, under the server's lock: no watch event for the session can
// reach c before it. An older connection of the same session (the client
// moved without closing it) is closed.
func (s *Server) bind(c *conn, session int64, frame []byte) bool {
	s.mu.Lock()
	allowed := s.serving
	if c.readOnly.Load() {
		allowed = s.readOnly && !s.serving
	}
	if _, ok := s.conns[c]; !ok || !allowed {
		s.mu.Unlock()
		return false
	}
	old := s.sessions[session]
	s.sessions[session] = c
	c.session.Store(session)
	c.mu.Lock()
	c.out = append(c.out, frame...)
	c.queued += len(frame)
	c.mu.Unlock()
	s.mu.Unlock()
	if old != nil && old != c {
		old.close("the session reconnected on another connection")
	}
	return true
}

// reaper closes connections that sent nothing for their session timeout
// (clients ping at a third of it). Time the reader spent not reading, under
// back pressure, does not count: the client's pings wait in the socket.
func (s *Server) reaper() {
	defer s.others.Done()
	every := min(max(s.cfg.MinSessionTimeout/4, 10*time.Millisecond), time.Second)
	t := time.NewTicker(every)
	defer t.Stop()
	var cs []*conn
	for {
		select {
		case <-s.quit:
			return
		case <-t.C:
		}
		now := time.Now().UnixNano()
		cs = cs[:0]
		s.mu.RLock()
		for c := range s.conns {
			if !c.stalled.Load() && now-c.lastRecv.Load() > c.timeout.Load()*int64(time.Millisecond) {
				cs = append(cs, c)
			}
		}
		s.mu.RUnlock()
		for _, c := range cs {
			c.close(fmt.Sprintf("nothing received for %d ms (the session timeout)", c.timeout.Load()))
		}
		clear(cs)
	}
}

// leaderWait bounds how long a handshake that arrives while the replica is
// not serving waits for a leader before the connection is closed. Clients
// back off about a second after a refused handshake (go-zookeeper after
// cycling its server list, ZooKeeper's own client up to a second), while a
// failover takes a fraction of one: waiting costs a client no more than a
// refusal would, and it gets its session back as soon as a leader is there.
const leaderWait = time.Second

// awaitServing reports whether the replica serves, waiting up to leaderWait
// for it; false also when done closes first (the connection was closed).
func (s *Server) awaitServing(done <-chan struct{}) bool {
	return s.awaitAdmission(done, false) == admitted
}

// admission is what a new connection may do.
type admission int

const (
	refused      admission = iota
	admitted               // the replica serves
	readOnlyOnly           // read-only mode: only read-only clients (readonly.go)
)

// awaitAdmission waits up to leaderWait until the replica serves, or, with
// orReadOnly, until it is in read-only mode; refused when neither came or
// done closed first (the connection was closed).
func (s *Server) awaitAdmission(done <-chan struct{}, orReadOnly bool) admission {
	s.mu.RLock()
	ok, ro, stopped, resumed, roReady := s.serving, s.readOnly, s.stopped, s.resumed, s.roReady
	s.mu.RUnlock()
	switch {
	case stopped:
		return refused
	case ok:
		return admitted
	case ro && orReadOnly:
		return readOnlyOnly
	}
	if !orReadOnly {
		roReady = nil // waits for a leader only
	}
	s.waiting.Add(1)
	defer s.waiting.Add(-1)
	t := time.NewTimer(leaderWait)
	defer t.Stop()
	select {
	case <-resumed:
		if s.isServing() {
			return admitted
		}
	case <-roReady:
		if s.isReadOnly() {
			return readOnlyOnly
		}
	case <-t.C:
	case <-done:
	case <-s.quit:
	}
	return refused
}

// retryPause is how long a handshake whose connect was answered with
// ConnectionLoss waits before it asks again, watching for a leader change
// meanwhile (a Service fails its waiting requests a moment before it tells
// its Host that it stopped serving: the reference does).
const retryPause = 10 * time.Millisecond

// pauseBeforeRetry waits retryPause, or, if the replica stopped serving
// after the lost count was read, until it serves again (awaitServing).
// changed says whether it stopped serving; ok is false when the
// connection closed or no leader came.
func (s *Server) pauseBeforeRetry(lost int64, done <-chan struct{}) (changed, ok bool) {
	pause := time.NewTimer(retryPause)
	defer pause.Stop()
	poll := time.NewTicker(time.Millisecond)
	defer poll.Stop()
	for s.lost.Load() == lost {
		select {
		case <-poll.C:
		case <-pause.C:
			return false, s.isServing() || s.awaitServing(done)
		case <-done:
			return false, false
		}
	}
	return true, s.awaitServing(done)
}

func (s *Server) isServing() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.serving && !s.stopped
}

func (s *Server) isStopped() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.stopped
}

func (s *Server) sessionConn(session int64) *conn {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.sessions[session]
}

func remoteIP(nc net.Conn) string {
	if a, ok := nc.RemoteAddr().(*net.TCPAddr); ok {
		return a.IP.String()
	}
	host, _, err := net.SplitHostPort(nc.RemoteAddr().String())
	if err != nil {
		return nc.RemoteAddr().String()
	}
	return host
}
