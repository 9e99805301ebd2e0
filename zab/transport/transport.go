package transport

import (
	"errors"
	"sync/atomic"

	"zablab/zab/core"
)

// Transport carries core.Messages between the peers of an ensemble. It is
// deliberately lossy: the Zab core retransmits what matters (it resends on
// ticks and restarts a follower's session after a gap), so a transport that
// drops under pressure is correct, and one that blocks the core's goroutine
// is not.
type Transport interface {
	// Send queues m for the peer m.To and returns at once. When the peer's
	// queue is full, or the peer is unknown, m is dropped and counted.
	Send(m core.Message)
	// Recv delivers every message received from any peer, in the order
	// each peer sent them. It is closed after Close. TCP also delivers a
	// local core.MsgPeerLost (From: the peer) when a connection to a peer
	// fails, so a follower hears at once that its leader's process died.
	Recv() <-chan core.Message
	// Close stops the transport and returns only when every goroutine it
	// started has ended. Later calls return nil and do nothing.
	Close() error
}

// Stats counts what a transport did since it started.
type Stats struct {
	Sent       uint64 // messages handed to a connection (TCP) or to the receiver's queue (memory)
	Received   uint64 // messages decoded and delivered to Recv
	Dropped    uint64 // messages not sent: queue full, unknown peer, closed, cut, or too large
	Reconnects uint64 // connections established to a peer after its first one
	Rejected   uint64 // connections closed for a bad handshake or a bad frame
}

// ErrConfig is wrapped by every configuration error, which names the field.
var ErrConfig = errors.New("transport: invalid configuration")

// counters are the atomic twin of Stats, updated by many goroutines.
type counters struct {
	sent, received, dropped, reconnects, rejected atomic.Uint64
}

func (c *counters) snapshot() Stats {
	return Stats{
		Sent:       c.sent.Load(),
		Received:   c.received.Load(),
		Dropped:    c.dropped.Load(),
		Reconnects: c.reconnects.Load(),
		Rejected:   c.rejected.Load(),
	}
}
