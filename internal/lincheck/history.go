package lincheck

import (
	"sync"
	"time"

	"github.com/anishathalye/porcupine"
)

// Open marks a return time still open: the operation's outcome is unknown,
// and Closed sets its return to the end of the history.
const Open = -1

// History collects operations from every client, timed from one start.
type History struct {
	start time.Time
	mu    sync.Mutex
	ops   []porcupine.Operation
}

// NewHistory starts a history now.
func NewHistory() *History { return &History{start: time.Now()} }

// Start is the history's time zero.
func (h *History) Start() time.Time { return h.start }

// Now is the history's clock: nanoseconds since its start.
func (h *History) Now() int64 { return int64(time.Since(h.start)) }

// At is t on the history's clock.
func (h *History) At(t time.Time) int64 { return int64(t.Sub(h.start)) }

// Add records one operation.
func (h *History) Add(op porcupine.Operation) {
	h.mu.Lock()
	h.ops = append(h.ops, op)
	h.mu.Unlock()
}

// Closed returns the history with every open return set after the last
// return: an operation whose outcome is unknown may take effect at any
// point after its call, or never.
func (h *History) Closed() []porcupine.Operation {
	h.mu.Lock()
	defer h.mu.Unlock()
	end := int64(0)
	for _, op := range h.ops {
		end = max(end, op.Return, op.Call)
	}
	out := make([]porcupine.Operation, len(h.ops))
	for i, op := range h.ops {
		if op.Return == Open {
			op.Return = end + 1
		}
		out[i] = op
	}
	return out
}
