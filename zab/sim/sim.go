package sim

import (
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/zab/core"
	"zablab/zab/storage"
	"zablab/zab/trace"
)

// Bugs are the known protocol errors the simulator must catch.
type Bugs struct {
	core.Bugs
	AckBeforeDurable bool // a peer sends its messages before its log write is on disk
}

// Options configure one schedule. Zero values pick from the seed.
type Options struct {
	Seed      uint64
	Voters    int // 1..7; 0 picks from the seed
	Observers int // -1 picks from the seed
	Steps     int // steps with faults; 0 means 600
	Bugs      Bugs
	Trace     io.Writer // nil: no trace
	// Events, when set, receives the schedule as structured events (the
	// peers' roles, every message, deliveries, faults and the violation),
	// to be drawn by package zab/trace/timeline.
	Events *[]trace.Event
	// SilentCrashes: every crash is a machine's (no socket closes, nobody
	// hears core.MsgPeerLost). By default half the crashes are a process's,
	// whose closed connections the others' transports report.
	SilentCrashes bool
	// FinalizeWait is every peer's election finalize wait; zero varies it
	// by seed and peer between 1 ms and a tick. A short wait makes rival
	// leaders (and so stale epochs) common.
	FinalizeWait time.Duration
}

// Result is what a schedule found.
type Result struct {
	Seed              uint64
	Voters, Observers int
	Step              int    // step of the violation
	Invariant         string // broken invariant; "" when none
	Detail            string
	LivenessTicks     int // ticks from the end of faults until a new message was delivered everywhere
	Delivered         int // messages delivered in the schedule
}

// Failed reports whether an invariant broke.
func (r Result) Failed() bool { return r.Invariant != "" }

func (r Result) String() string {
	if !r.Failed() {
		return fmt.Sprintf("seed %d: ok (%d voters, %d observers, %d delivered, live after %d ticks)",
			r.Seed, r.Voters, r.Observers, r.Delivered, r.LivenessTicks)
	}
	return fmt.Sprintf("seed %d: step %d: %s: %s (%d voters, %d observers)",
		r.Seed, r.Step, r.Invariant, r.Detail, r.Voters, r.Observers)
}

const (
	tickLen       = 10 // simulated time units per tick; a unit is a millisecond of peer clock
	initLimit     = 10
	syncLimit     = 5
	livenessBound = 400 // ticks; a schedule that takes longer is a liveness violation
	// The peers keep very little of their log's data in memory, so that
	// most syncs and resends read entries back from the (simulated) disk.
	simKeepEntries = 3
	simKeepBytes   = 4 * recordSize
	// A message carries at most three entries (each an 8-byte id, see
	// proposeNoDrain), so that a follower's history comes as NEWLEADER and then
	// PROPOSE in most syncs.
	simBatchBytes = 8
)

// Run plays one schedule: Steps random steps with faults, then a fault-free
// phase that must deliver a new message everywhere within livenessBound.
func Run(opts Options) Result {
	w := newWorld(opts)
	for w.step = 1; w.step <= w.opts.Steps && w.fail == nil; w.step++ {
		w.faultStep()
		w.checkStep()
	}
	if w.fail == nil {
		w.liveness()
	}
	w.res.Delivered = len(w.chk.chosen)
	if w.fail != nil {
		return *w.fail
	}
	return w.res
}

// world is one simulated ensemble with its network and checker state.
type world struct {
	opts  Options
	rng   *rand.Rand
	lost  *rand.Rand // lost-connection reports only: the schedule of a seed stays as it was
	net   network
	now   int64
	step  int
	peers []*peer
	res   Result
	fail  *Result
	log   logrus.FieldLogger
	nextN uint64 // proposals made, for unique ids
	chk   checker
	rec   *recorder // nil unless Options.Events is set
}

// peer is one simulated process; core is nil while it is down.
type peer struct {
	id       uint64
	voters   []uint64
	obs      []uint64
	core     *core.Core
	store    *storage.Store
	mlog     *storage.MemLog
	app      app
	inc      uint64 // incarnation, raised by every restart
	skew     int64  // clock offset in nanoseconds
	nextTick int64
	pausedTo int64          // while now < pausedTo the process is stopped (a GC pause, SIGSTOP)
	syncNeed map[uint64]int // sync seq → messages delivered anywhere when Sync was called
	// own holds the ids this peer proposed since it last went Looking and
	// has not delivered yet; syncOwn what own held when each Sync was
	// called: the sync must come after their delivery.
	own      map[uint64]bool
	syncOwn  map[uint64][]uint64
	split    core.Splitter
	jobs     []diskJob // broadcast Readys waiting for their fsync (sim/disk.go)
	held     core.Held // their late messages per destination
	maxCount uint32
}

func newWorld(opts Options) *world {
	rng := rand.New(rand.NewPCG(opts.Seed, 0x5a4142))
	if opts.Voters == 0 {
		opts.Voters = []int{1, 2, 3, 3, 3, 4, 5, 5, 6, 7}[rng.IntN(10)]
	}
	if opts.Observers < 0 {
		opts.Observers = []int{0, 0, 0, 1, 2}[rng.IntN(5)]
	}
	if opts.Steps == 0 {
		opts.Steps = 600
	}
	w := &world{opts: opts, rng: rng, lost: rand.New(rand.NewPCG(opts.Seed, 0x4c4f5354)), chk: newChecker()}
	w.res = Result{Seed: opts.Seed, Voters: opts.Voters, Observers: opts.Observers}
	w.net = network{rng: rng, blocked: map[[2]uint64]bool{}, dropP: 0.03, dupP: 0.03, maxDelay: 2 * tickLen}
	w.log = newLogger(opts.Trace)
	w.rec = newRecorder(opts.Events)
	w.buildPeers()
	return w
}

func (w *world) buildPeers() {
	var voters, obs []uint64
	for i := 1; i <= w.opts.Voters+w.opts.Observers; i++ {
		if i <= w.opts.Voters {
			voters = append(voters, uint64(i))
		} else {
			obs = append(obs, uint64(i))
		}
	}
	maxCount := uint32(0)
	if w.rng.IntN(4) == 0 {
		maxCount = uint32(3 + w.rng.IntN(20)) // exercise counter exhaustion
	}
	for i := range voters {
		w.peers = append(w.peers, w.newPeer(uint64(i+1), voters, obs, maxCount))
	}
	for _, id := range obs {
		w.peers = append(w.peers, w.newPeer(id, voters, obs, maxCount))
	}
	for _, p := range w.peers {
		w.start(p)
	}
}

func (w *world) newPeer(id uint64, voters, obs []uint64, maxCount uint32) *peer {
	mlog := &storage.MemLog{}
	return &peer{id: id, voters: voters, obs: obs, mlog: mlog, maxCount: maxCount,
		store:    &storage.Store{Log: mlog, Stable: &storage.MemStable{}, Snapshots: &storage.MemSnapshots{}},
		skew:     (w.rng.Int64N(10_001) - 5_000) * 1_000_000,
		nextTick: w.rng.Int64N(tickLen) + 1}
}

// clock is the peer's wall clock in Unix-like nanoseconds, skewed.
func (w *world) clock(p *peer) int64 { return 1_700_000_000_000_000_000 + p.skew + w.now*1_000_000 }

func (w *world) byID(id uint64) *peer {
	if id == 0 || int(id) > len(w.peers) {
		return nil
	}
	return w.peers[id-1]
}

func (w *world) violate(invariant, format string, args ...any) {
	w.violateBy(nil, invariant, format, args...)
}

// violateBy records a violation caused by the events cause (zero refs,
// as when nothing is recorded, are left out).
func (w *world) violateBy(cause []trace.Ref, invariant, format string, args ...any) {
	if w.fail != nil {
		return
	}
	r := w.res
	r.Step, r.Invariant, r.Detail = w.step, invariant, fmt.Sprintf(format, args...)
	w.fail = &r
	w.tracef("VIOLATION %s: %s", invariant, r.Detail)
	w.recordViolation(&r, cause)
}

func (w *world) tracef(format string, args ...any) {
	if w.opts.Trace != nil {
		fmt.Fprintf(w.opts.Trace, "%5d t=%-6d "+format+"\n", append([]any{w.step, w.now}, args...)...)
	}
}

func newLogger(out io.Writer) logrus.FieldLogger {
	l := logrus.New()
	if out == nil {
		l.SetOutput(io.Discard)
		l.SetLevel(logrus.PanicLevel)
		return l
	}
	l.SetOutput(out)
	l.SetLevel(logrus.DebugLevel)
	l.SetFormatter(&logrus.TextFormatter{DisableTimestamp: true, DisableColors: true})
	return l
}
