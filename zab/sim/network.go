package sim

import (
	"math/rand/v2"
	"slices"

	"zablab/zab/core"
)

// network is the simulated network: every message sent waits in flight until
// the simulator delivers it, possibly late, out of order, twice, or never.
// blocked[a][b] cuts the link from a to b only, so partitions can be
// asymmetric.
type network struct {
	rng      *rand.Rand
	inflight []flight
	blocked  map[[2]uint64]bool
	dropP    float64
	dupP     float64
	maxDelay int64
	sent     uint64 // messages sent so far: each flight's id
}

type flight struct {
	msg core.Message
	at  int64  // earliest delivery time
	id  uint64 // the send's number (a duplicate has its original's); 0: a local note
}

// send puts m in flight and returns its id and, when the network lost it
// at once, why; dup says a second copy is in flight too.
func (n *network) send(m core.Message, now int64) (id uint64, lost string, dup bool) {
	n.sent++
	id = n.sent
	if n.blocked[[2]uint64{m.From, m.To}] {
		return id, "link cut", false
	}
	if n.rng.Float64() < n.dropP {
		return id, "lost by the network", false
	}
	n.inflight = append(n.inflight, flight{msg: m, at: now + n.delay(), id: id})
	if n.rng.Float64() < n.dupP {
		n.inflight = append(n.inflight, flight{msg: m, at: now + n.delay(), id: id})
		dup = true
	}
	return id, "", dup
}

// delay is usually short; one message in fifty lingers for up to 20 times
// longer, long enough to reach a peer that has moved on to a new epoch.
func (n *network) delay() int64 {
	if n.dropP > 0 && n.rng.IntN(50) == 0 {
		return n.rng.Int64N(20*n.maxDelay + 1)
	}
	return n.rng.Int64N(n.maxDelay + 1)
}

// take removes and returns a random message that may be delivered at now.
// ok is false when none is due, or when the one taken was on a link cut
// since it left (cut: it is lost).
func (n *network) take(now int64) (f flight, ok, cut bool) {
	var due []int
	for i, f := range n.inflight {
		if f.at <= now {
			due = append(due, i)
		}
	}
	if len(due) == 0 {
		return flight{}, false, false
	}
	i := due[n.rng.IntN(len(due))]
	f = n.inflight[i]
	n.inflight = slices.Delete(n.inflight, i, i+1)
	if n.blocked[[2]uint64{f.msg.From, f.msg.To}] {
		return f, false, true
	}
	return f, true, false
}

// takeOldest removes the oldest due message (fault-free delivery).
func (n *network) takeOldest(now int64) (flight, bool) {
	for i, f := range n.inflight {
		if f.at <= now {
			n.inflight = slices.Delete(n.inflight, i, i+1)
			return f, true
		}
	}
	return flight{}, false
}

func (n *network) heal() { clear(n.blocked) }
