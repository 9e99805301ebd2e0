package transport

import (
	"sync"

	"zablab/zab/core"
)

// MemNetwork connects in-memory endpoints, for tests of the runtime: no
// sockets, no goroutines, and a partition is one call. Messages pass
// through the codec on the way, so a receiver gets exactly what TCP would
// deliver (its own copy of every slice, nil for empty data) and a message
// the codec cannot carry fails here first.
type MemNetwork struct {
	queueLen int

	mu  sync.RWMutex
	eps map[uint64]*memEndpoint // the newest endpoint of each id, closed or not
	cut map[[2]uint64]bool      // {from, to}: messages from → to are dropped
}

// NewMemNetwork returns an empty network whose endpoints queue up to
// queueLen received messages each (DefaultQueueLen if queueLen <= 0).
func NewMemNetwork(queueLen int) *MemNetwork {
	return &MemNetwork{
		queueLen: orDefault(max(queueLen, 0), DefaultQueueLen),
		eps:      make(map[uint64]*memEndpoint),
		cut:      make(map[[2]uint64]bool),
	}
}

// Endpoint returns the transport of peer id, creating it on first use. After
// the endpoint is closed, Endpoint creates a fresh one: a restarted peer.
func (n *MemNetwork) Endpoint(id uint64) Transport {
	n.mu.Lock()
	defer n.mu.Unlock()
	if e := n.eps[id]; e != nil && !e.closed {
		return e
	}
	e := &memEndpoint{n: n, id: id, recv: make(chan core.Message, n.queueLen)}
	n.eps[id] = e
	return e
}

// Cut drops every later message from → to, until Heal. The other
// direction is untouched: one-way failures are what break naive protocols.
func (n *MemNetwork) Cut(from, to uint64) {
	n.mu.Lock()
	n.cut[[2]uint64{from, to}] = true
	n.mu.Unlock()
}

// Heal undoes Cut(from, to).
func (n *MemNetwork) Heal(from, to uint64) {
	n.mu.Lock()
	delete(n.cut, [2]uint64{from, to})
	n.mu.Unlock()
}

// Partition cuts, in both directions, every pair of peers that are in
// different groups. Peers within a group still talk.
func (n *MemNetwork) Partition(groups ...[]uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for i, g := range groups {
		for _, h := range groups[i+1:] {
			for _, a := range g {
				for _, b := range h {
					n.cut[[2]uint64{a, b}] = true
					n.cut[[2]uint64{b, a}] = true
				}
			}
		}
	}
}

// HealAll undoes every Cut and Partition.
func (n *MemNetwork) HealAll() {
	n.mu.Lock()
	clear(n.cut)
	n.mu.Unlock()
}

// Stats returns the counters of id's newest endpoint.
func (n *MemNetwork) Stats(id uint64) Stats {
	n.mu.RLock()
	defer n.mu.RUnlock()
	if e := n.eps[id]; e != nil {
		return e.stats.snapshot()
	}
	return Stats{}
}

type memEndpoint struct {
	n     *MemNetwork
	id    uint64
	recv  chan core.Message
	stats counters

	closed bool // guarded by n.mu, so no Send races with close(recv)
}

// Send implements Transport: it delivers into the receiver's queue at once
// or drops, never blocks. Like TCP, it drops a message whose From is not
// the sender.
func (e *memEndpoint) Send(m core.Message) {
	f := AppendMessage(nil, &m)
	c, err := DecodeMessage(f)
	e.n.mu.RLock()
	defer e.n.mu.RUnlock()
	dst := e.n.eps[m.To]
	if err != nil || e.closed || dst == nil || dst.closed || m.From != e.id || e.n.cut[[2]uint64{e.id, m.To}] {
		e.stats.dropped.Add(1)
		return
	}
	select {
	case dst.recv <- c:
		e.stats.sent.Add(1)
		dst.stats.received.Add(1)
	default:
		e.stats.dropped.Add(1)
	}
}

// Recv implements Transport.
func (e *memEndpoint) Recv() <-chan core.Message { return e.recv }

// Close implements Transport. The endpoint starts no goroutines, so there
// is nothing to wait for.
func (e *memEndpoint) Close() error {
	e.n.mu.Lock()
	defer e.n.mu.Unlock()
	if !e.closed {
		e.closed = true
		close(e.recv)
	}
	return nil
}
