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
}

type flight struct {
	msg core.Message
	at  int64 // earliest delivery time
}

func (n *network) send(m core.Message, now int64) {
	if n.blocked[[2]uint64{m.From, m.To}] || n.rng.Float64() < n.dropP {
		return
	}
	n.inflight = append(n.inflight, flight{msg: m, at: now + n.delay()})
	if n.rng.Float64() < n.dupP {
		n.inflight = append(n.inflight, flight{msg: m, at: now + n.delay()})
	}
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
func (n *network) take(now int64) (core.Message, bool) {
	var due []int
	for i, f := range n.inflight {
		if f.at <= now {
			due = append(due, i)
		}
	}
	if len(due) == 0 {
		return core.Message{}, false
	}
	i := due[n.rng.IntN(len(due))]
	m := n.inflight[i].msg
	n.inflight = slices.Delete(n.inflight, i, i+1)
	if n.blocked[[2]uint64{m.From, m.To}] {
		return core.Message{}, false
	}
	return m, true
}

// takeOldest removes the oldest due message (fault-free delivery).
func (n *network) takeOldest(now int64) (core.Message, bool) {
	for i, f := range n.inflight {
		if f.at <= now {
			n.inflight = slices.Delete(n.inflight, i, i+1)
			return f.msg, true
		}
	}
	return core.Message{}, false
}

func (n *network) heal() { clear(n.blocked) }
