package client

import (
	"time"

	"github.com/sirupsen/logrus"
)

// Option changes how Connect builds a handle.
type Option func(*options)

type options struct {
	logger         logrus.FieldLogger
	connectTimeout time.Duration
	onState        func(State)
	onDialError    func(addr string, err error)
}

// DefaultConnectTimeout is how long Connect waits for a session when no
// WithConnectTimeout is given.
const DefaultConnectTimeout = 10 * time.Second

func defaultOptions() options {
	quiet := logrus.New()
	quiet.SetLevel(logrus.WarnLevel)
	return options{logger: quiet, connectTimeout: DefaultConnectTimeout}
}

// WithLogger sends the handle's log lines, and go-zookeeper's, to l.
// go-zookeeper's own lines (connected, reconnecting, ...) go out at DEBUG.
func WithLogger(l logrus.FieldLogger) Option {
	return func(o *options) { o.logger = l }
}

// WithConnectTimeout bounds how long Connect waits for the session to be
// established (DefaultConnectTimeout otherwise).
func WithConnectTimeout(d time.Duration) Option {
	return func(o *options) { o.connectTimeout = d }
}

// WithStateCallback calls f on every change of the session's state, from
// the connection's goroutine: f must not block and must not call the handle.
// Connect returns only after f has seen the first StateConnected (or
// StateExpired).
func WithStateCallback(f func(State)) Option {
	return func(o *options) { o.onState = f }
}

// WithDialErrors calls f, while Connect waits for the first session, with
// every server address whose TCP connect failed (refused, unreachable,
// timed out), from the connection's goroutine, so a program can say at
// once that nothing listens there while Connect goes on trying until its
// timeout. Later reconnects show in the state callback. f must not block.
func WithDialErrors(f func(addr string, err error)) Option {
	return func(o *options) { o.onDialError = f }
}
