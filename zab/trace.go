package zab

import (
	"fmt"
	"os"

	"zablab/properties"
	"zablab/zab/core"
	"zablab/zab/trace"
)

// Trace keys: trace.file names the peer's trace file (empty: no trace);
// trace.maxMB bounds it (default 64).
const (
	KeyTraceFile  = "trace.file"
	KeyTraceMaxMB = "trace.maxMB"
	// DefaultTraceMaxMB bounds a trace file when trace.maxMB is not set.
	DefaultTraceMaxMB = 64
)

// readTrace reads the trace keys into c.
func (c *Config) readTrace(p *properties.Properties) error {
	c.TraceFile = p.Path(KeyTraceFile, "")
	mb, err := p.Int(KeyTraceMaxMB, DefaultTraceMaxMB)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if mb < 1 {
		return p.Errorf(KeyTraceMaxMB, ErrConfig, "must be at least 1 (MiB), got %d", mb)
	}
	c.TraceMaxBytes = int64(mb) << 20
	return nil
}

// tracer writes the peer's trace (package zab/trace): its starts and
// stops, role changes, every message sent and received, what it logs and
// delivers. Only the peer's goroutine calls it, except open and stop,
// which run while that goroutine is not running. Every method of a nil
// tracer returns at once: without trace.file a peer pays one nil check
// per hook.
type tracer struct {
	w     *trace.Writer
	peer  uint64
	inc   uint64
	n     uint64
	links map[uint64]uint64 // peer → messages sent to it in this incarnation
	state core.Status       // the last state recorded (role, phase, epoch, leader)
	known bool              // a state was recorded
}

// openTracer starts the trace of a new incarnation, or returns nil when
// cfg names no trace file.
func openTracer(cfg *Config, inc uint64, st core.Restored) (*tracer, error) {
	if cfg.TraceFile == "" {
		return nil, nil
	}
	w, err := trace.Create(cfg.TraceFile, cfg.TraceMaxBytes)
	if err != nil {
		return nil, cfg.keyErr(KeyTraceFile, "cannot open the trace file: %v", err)
	}
	t := &tracer{w: w, peer: cfg.ID, inc: inc, links: map[uint64]uint64{}}
	last := st.Snapshot.Zxid
	if n := len(st.Entries); n > 0 {
		last = st.Entries[n-1].Zxid
	}
	t.add(trace.Event{Kind: trace.KindStart, Zxid: trace.Zxid(last), Epoch: st.Stable.CurrentEpoch,
		Text: fmt.Sprintf("pid %d, incarnation %#x; its disk holds epochs accepted %d, current %d, log up to %s",
			os.Getpid(), inc, st.Stable.AcceptedEpoch, st.Stable.CurrentEpoch, last)})
	return t, t.w.Flush()
}

func (t *tracer) add(e trace.Event) {
	t.n++
	e.Peer, e.Inc, e.N, e.Time = t.peer, t.inc, t.n, trace.Now()
	t.w.Add(&e)
}

func (t *tracer) send(m *core.Message) {
	if t == nil {
		return
	}
	tm := trace.MsgOf(m)
	t.links[m.To]++
	tm.Link = t.links[m.To]
	t.add(trace.Event{Kind: trace.KindSend, Msg: tm})
}

func (t *tracer) recv(m *core.Message) {
	if t == nil {
		return
	}
	t.add(trace.Event{Kind: trace.KindRecv, Msg: trace.MsgOf(m)})
}

// changed records the core's role, phase, epoch and leader when one of
// them changed since the last record.
func (t *tracer) changed(c *core.Core) {
	if t == nil {
		return
	}
	s := c.Status()
	if t.known && s.Role == t.state.Role && s.Phase == t.state.Phase && s.Epoch == t.state.Epoch &&
		s.Leader == t.state.Leader && s.Established == t.state.Established {
		return
	}
	t.state, t.known = s, true
	t.add(trace.Event{Kind: trace.KindState, Role: s.Role.String(), Phase: s.Phase.String(), Epoch: s.Epoch,
		Leader: s.Leader, Zxid: trace.Zxid(s.Last)})
}

// persisted records what a Ready wrote, once it is on disk.
func (t *tracer) persisted(rd *core.Ready) {
	if t == nil {
		return
	}
	if rd.Snapshot != nil {
		t.add(trace.Event{Kind: trace.KindSnapshot, Zxid: trace.Zxid(rd.Snapshot.Meta.Zxid),
			Text: "installed the leader's snapshot (SNAP)"})
	}
	if rd.Truncate != nil {
		t.add(trace.Event{Kind: trace.KindTruncate, Zxid: trace.Zxid(*rd.Truncate)})
	}
	if n := len(rd.Entries); n > 0 {
		t.add(trace.Event{Kind: trace.KindAppend, Zxid: trace.Zxid(rd.Entries[0].Zxid),
			Last: trace.Zxid(rd.Entries[n-1].Zxid), Count: uint64(n)})
	}
}

// events records what the callbacks were given.
func (t *tracer) events(rd *core.Ready) {
	if t == nil {
		return
	}
	for i := range rd.Events {
		switch ev := &rd.Events[i]; ev.Kind {
		case core.EventDeliver:
			t.add(trace.Event{Kind: trace.KindDeliver, Zxid: trace.Zxid(ev.Entry.Zxid), Count: ev.Entry.Seq,
				Text: fmt.Sprintf("proposed by peer %d (seq %d)", ev.Entry.Proposer, ev.Entry.Seq)})
		case core.EventRestore:
			t.add(trace.Event{Kind: trace.KindRestore, Zxid: trace.Zxid(ev.Snapshot.Meta.Zxid), Text: "SetState"})
		}
	}
}

// flush writes what the batch recorded: one write per batch.
func (t *tracer) flush() {
	if t != nil {
		_ = t.w.Flush() // a trace that cannot be written must not stop the peer
	}
}

// stop records a clean shutdown (and why the peer had stopped by itself,
// if it had) and closes the file.
func (t *tracer) stop(failure error) {
	if t == nil {
		return
	}
	e := trace.Event{Kind: trace.KindStop, Text: "Shutdown"}
	if failure != nil {
		e.Text = "stopped by itself: " + failure.Error()
	}
	t.add(e)
	_ = t.w.Close()
}

// close closes the file without a stop record (Startup failed after
// opening it).
func (t *tracer) close() {
	if t != nil {
		_ = t.w.Close()
	}
}
