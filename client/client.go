package client

import (
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/sirupsen/logrus"

	"zablab/mwzookeeper"
)

// MWZooKeeper is a handle on one session of the service: the course's
// client. It is safe for concurrent use; calls from several goroutines are
// pipelined on the one connection. Make one with Connect and end it with
// Close.
type MWZooKeeper struct {
	conn    *zk.Conn // set once in Connect, before anyone else reads it
	servers string
	log     logrus.FieldLogger
	onState func(State)
	async   *pipeline
	watches *watches
	// persistent are AddWatch's watches (beyond.go).
	persistent *persistentWatches

	// reached: a server took a TCP connection (go-zk's StateConnected),
	// so a connect that gives no session was refused, not unanswered.
	reached atomic.Bool
	// dialErr is the last failed TCP connect (a string), for Connect's
	// error when no server answered.
	dialErr atomic.Value

	mu          sync.Mutex
	state       State         // guarded by mu
	established chan struct{} // closed when the first session is up (or expired)
	estOnce     sync.Once
	closeOnce   sync.Once
}

// Connect opens a session with one of servers ("host:port"; go-zk picks
// them in random order and moves on when one fails) and waits until the
// session is established, at most the connect timeout (WithConnectTimeout).
// sessionTimeout is the timeout asked for; the server may narrow it.
func Connect(servers []string, sessionTimeout time.Duration, opts ...Option) (*MWZooKeeper, error) {
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	list := strings.Join(servers, ",")
	if len(servers) == 0 {
		return nil, fmt.Errorf("client: connect: no servers given: %w", mwzookeeper.ErrBadArguments)
	}
	z := &MWZooKeeper{
		servers:     list,
		log:         o.logger.WithField("servers", list),
		onState:     o.onState,
		state:       StateConnecting,
		established: make(chan struct{}),
		async:       newPipeline(),
		watches:     newWatches(),
		persistent:  &persistentWatches{},
	}
	conn, _, err := zk.Connect(servers, sessionTimeout, zk.WithDialer(z.dialer(o.onDialError)),
		zk.WithEventCallback(z.onEvent), zk.WithLogger(zkLogger{z.log}))
	if err != nil {
		return nil, fmt.Errorf("client: connect to %s: %w (%v)", list, mwzookeeper.ErrBadArguments, err)
	}
	z.mu.Lock()
	z.conn = conn // under mu: go-zk's callback may already be running
	z.mu.Unlock()
	timer := time.NewTimer(o.connectTimeout)
	defer timer.Stop()
	select {
	case <-z.established:
	case <-timer.C:
		z.Close()
		why := "no server answered"
		if last, ok := z.dialErr.Load().(string); ok {
			why += " (last: " + last + ")"
		}
		if z.reached.Load() {
			// A handshake has no error code: the server's log says why.
			why = "a server took the connection but gave no session (its log says why)"
		}
		return nil, fmt.Errorf("client: no session with %s within %s: %s: %w",
			list, o.connectTimeout, why, mwzookeeper.ErrConnectionLoss)
	}
	if z.State() == StateExpired {
		z.Close()
		return nil, fmt.Errorf("client: connect to %s: %w", list, mwzookeeper.ErrSessionExpired)
	}
	return z, nil
}

// dialer is go-zk's TCP connect, noting each failure for Connect's error
// and, until the first session, for f (WithDialErrors).
func (z *MWZooKeeper) dialer(f func(addr string, err error)) zk.Dialer {
	return func(network, addr string, timeout time.Duration) (net.Conn, error) {
		c, err := net.DialTimeout(network, addr, timeout)
		if err != nil {
			z.dialErr.Store(err.Error())
			select {
			case <-z.established: // a reconnect: the state callback tells
			default:
				if f != nil {
					f(addr, err)
				}
			}
		}
		return c, err
	}
}

// onEvent sees go-zk's session events on go-zk's goroutine.
func (z *MWZooKeeper) onEvent(ev zk.Event) {
	if ev.Type != zk.EventSession {
		z.onWatchEvent(ev)
		return
	}
	if ev.State == zk.StateConnected {
		z.reached.Store(true)
	}
	s, ok := stateOf(ev.State)
	if !ok {
		return
	}
	z.mu.Lock()
	if z.state == StateExpired || z.state == StateClosed {
		// Dead for good: go-zk would quietly open a fresh session after
		// an expiry, which would lose our ephemerals behind our back.
		z.mu.Unlock()
		return
	}
	z.state = s
	conn := z.conn // nil while Connect has not stored it yet
	z.mu.Unlock()
	if s != StateConnected {
		// The server forgets persistent watches with the connection,
		// and go-zk does not add them again: end them now.
		z.persistent.endAll(func(path string) error { return z.wrap("addWatch", path, zk.ErrConnectionClosed) })
	}
	switch s {
	case StateConnected:
		var id int64
		if conn != nil {
			id = conn.SessionID()
		}
		z.log.WithFields(logrus.Fields{"session": fmt.Sprintf("0x%x", id),
			"server": ev.Server}).Info("session established")
	case StateExpired:
		z.log.Warn("session expired: the handle is dead, connect anew")
		go func() {
			// Not on go-zk's goroutine: Close waits for it. If conn
			// is not stored yet, Connect sees the expiry and closes it.
			z.mu.Lock()
			c := z.conn
			z.mu.Unlock()
			if c != nil {
				c.Close()
			}
		}()
	}
	if z.onState != nil {
		z.onState(s)
	}
	if s == StateConnected || s == StateExpired {
		// After the callback: when Connect returns, the callback has seen
		// how the session began (zkCli's shell prints it at once).
		z.estOnce.Do(func() { close(z.established) })
	}
}

// Close ends the session (its ephemerals go at once) and the connection.
// Watches still waiting receive an Event with ErrClosed; async calls made
// before Close still get their callbacks, possibly after Close returns.
// Closing twice is harmless.
func (z *MWZooKeeper) Close() error {
	z.closeOnce.Do(func() {
		z.mu.Lock()
		z.state = StateClosed
		z.mu.Unlock()
		z.conn.Close()
		// go-zk ends its watches on Close; end any it did not know.
		z.watches.endAll(func(path string) error { return z.wrap("watch", path, ErrClosed) })
		z.persistent.endAll(func(path string) error { return z.wrap("addWatch", path, ErrClosed) })
		z.log.Debug("handle closed")
		if z.onState != nil {
			z.onState(StateClosed)
		}
	})
	return nil
}

// State is the session's state now.
func (z *MWZooKeeper) State() State {
	z.mu.Lock()
	defer z.mu.Unlock()
	return z.state
}

// SessionID is the session's id (0 before the first session and after an
// expiry).
func (z *MWZooKeeper) SessionID() int64 { return z.conn.SessionID() }

// Server is the server the handle talks to now, or talked to last.
func (z *MWZooKeeper) Server() string { return z.conn.Server() }

// check refuses calls on a dead handle before they reach go-zk.
func (z *MWZooKeeper) check(op, path string) error {
	switch z.State() {
	case StateClosed:
		return fmt.Errorf("%s %s: %w", op, path, ErrClosed)
	case StateExpired:
		return fmt.Errorf("%s %s: %w", op, path, mwzookeeper.ErrSessionExpired)
	}
	return nil
}

// zkLogger hands go-zk's log lines to logrus at DEBUG: go-zk reports
// every reconnect, which is routine, not news.
type zkLogger struct{ l logrus.FieldLogger }

func (g zkLogger) Printf(format string, args ...any) { g.l.Debugf("go-zk: "+format, args...) }
