package storage

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"zablab/internal/wait"
	"zablab/zab/core"
)

const (
	walkBaseSeed = 1  // first seed of a plain run
	walkSeeds    = 16 // walks of a plain run (about 5 s with -race); STORAGE_WALK_SEEDS sets another count
	walkSteps    = 80 // operations per walk
	walkTraceLen = 12 // steps a failure message lists
)

// Odd sizes, so that records, preallocation steps and rotations end at odd
// offsets, beside page-aligned ones, which spares written directly need.
var (
	walkMaxFileBytes  = []int64{10_007, 65_537, 64 << 10, 256 << 10, 12_288 + 100}
	walkPreallocBytes = []int64{0, 4099, 8192, -1}
)

// TestFileLogRandomWalk runs random walks over Append, Sync, TruncateAfter,
// RemoveBefore, Close, process crashes, power losses, spares and
// SetForceSync. After every step the log must return what a model says it
// holds, the newest file must hold only zeros after its records (the
// padding of appends and the spare's zeros must not leave anything else)
// and be no longer than its preallocation, and a reopening must keep every
// synced entry.
//
// STORAGE_WALK_SEED=n replays the walk of seed n alone (the spare's
// goroutine may still finish at other steps); STORAGE_WALK_SEEDS=n runs n
// walks.
func TestFileLogRandomWalk(t *testing.T) {
	base, n := uint64(walkBaseSeed), uint64(walkSeeds)
	if s := os.Getenv("STORAGE_WALK_SEED"); s != "" {
		base, n = walkEnvUint(t, "STORAGE_WALK_SEED", s), 1
	} else if s := os.Getenv("STORAGE_WALK_SEEDS"); s != "" {
		n = walkEnvUint(t, "STORAGE_WALK_SEEDS", s)
	}
	var padded, spares, direct int
	for seed := base; seed < base+n; seed++ {
		ok := t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			w := newWalk(t, seed)
			w.run()
			padded, spares, direct = padded+w.padded, spares+w.spares, direct+w.direct
		})
		if !ok {
			return // the first failure is the one to replay
		}
	}
	// Shows that the walks still reach the padding and the spares.
	t.Logf("%d walks from seed %d; %d checks saw appends padded into zeros; %d spares ready (%d written directly)",
		n, base, padded, spares, direct)
}

func walkEnvUint(t *testing.T, key, s string) uint64 {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: %v", key, s, err)
	}
	return v
}

// walk is one random walk's log and its model of it.
type walk struct {
	t    *testing.T
	seed uint64
	rng  *rand.Rand
	opts FileLogOptions
	dir  string
	l    *FileLog

	durable []core.Entry // synced: must survive any crash
	pending []core.Entry // appended, not synced: may survive a crash
	floor   core.Zxid    // the highest z RemoveBefore got; the model reads above it
	noFsync bool         // SetForceSync(false) is in force
	gen     int          // batches appended, to tell their data apart

	step   int
	op     string
	trace  []string
	padded int // checks that found the next append padded into zeros
	spares int // waits for the spare that found one ready
	direct int // of those, spares written past the page cache
}

func newWalk(t *testing.T, seed uint64) *walk {
	rng := rand.New(rand.NewPCG(seed, 99))
	w := &walk{t: t, seed: seed, rng: rng, dir: t.TempDir()}
	w.opts = FileLogOptions{
		MaxFileBytes:  walkMaxFileBytes[rng.IntN(len(walkMaxFileBytes))],
		PreallocBytes: walkPreallocBytes[rng.IntN(len(walkPreallocBytes))],
	}
	w.open()
	// Whatever log is open last; closing a crashed one again is harmless.
	t.Cleanup(func() { _ = w.l.Close() })
	return w
}

func (w *walk) run() {
	for w.step = 0; w.step < walkSteps; w.step++ {
		switch r := w.rng.IntN(100); {
		case r < 45:
			w.appendBatch()
		case r < 55:
			w.begin("Sync")
			w.sync()
		case r < 63:
			w.truncate()
		case r < 69:
			w.remove()
		case r < 75:
			w.closeReopen()
		case r < 81:
			w.crashReopen(false)
		case r < 86:
			if w.noFsync { // the model of a power loss assumes fsyncs
				continue
			}
			w.crashReopen(true)
		case r < 92:
			w.waitSpare()
		default:
			w.toggleForceSync()
		}
		w.check()
	}
}

// begin names the step's operation for the trace and failure messages.
func (w *walk) begin(format string, args ...any) {
	w.op = fmt.Sprintf(format, args...)
	w.trace = append(w.trace, fmt.Sprintf("step %d: %s", w.step, w.op))
}

// fail stops the walk with its seed, options and last steps: enough to
// replay it.
func (w *walk) fail(format string, args ...any) {
	w.t.Helper()
	last := w.trace[max(0, len(w.trace)-walkTraceLen):]
	w.t.Fatalf("seed %d, options %+v, step %d (%s): %s\nlast steps:\n\t%s\n"+
		"replay: STORAGE_WALK_SEED=%d go test -run TestFileLogRandomWalk ./zab/storage/",
		w.seed, w.opts, w.step, w.op, fmt.Sprintf(format, args...), strings.Join(last, "\n\t"), w.seed)
}

// all is every entry appended and not truncated, synced or not.
func (w *walk) all() []core.Entry {
	return append(w.durable[:len(w.durable):len(w.durable)], w.pending...)
}

func (w *walk) open() {
	l, err := OpenFileLog(w.dir, w.opts)
	if err != nil {
		w.fail("OpenFileLog: %v", err)
	}
	w.l = l
	if w.noFsync { // an option of the running process, not of the folder
		l.SetForceSync(false)
	}
}

// appendBatch appends 1 to 8 entries, mostly small, now and then larger
// than a spare's chunk or a whole file, and syncs them 3 times in 4.
func (w *walk) appendBatch() {
	z := core.NewZxid(1, uint32(1+w.rng.IntN(3)))
	if all := w.all(); len(all) > 0 {
		z = all[len(all)-1].Zxid + 1
	}
	w.gen++
	es := make([]core.Entry, 1+w.rng.IntN(8))
	for i := range es {
		size := w.rng.IntN(1500)
		if w.rng.IntN(20) == 0 {
			size = 5000 + w.rng.IntN(80_000)
		}
		data := make([]byte, size)
		for j := range data {
			data[j] = byte(w.gen*31 + j)
		}
		es[i] = core.Entry{Zxid: z + core.Zxid(i), Seq: uint64(w.gen), Data: data}
	}
	w.begin("Append(%v..%v)", es[0].Zxid, es[len(es)-1].Zxid)
	if err := w.l.Append(es); err != nil {
		w.fail("Append: %v", err)
	}
	w.pending = append(w.pending, es...)
	if w.rng.IntN(4) > 0 {
		w.begin("Sync")
		w.sync()
	}
}

func (w *walk) sync() {
	if err := w.l.Sync(); err != nil {
		w.fail("Sync: %v", err)
	}
	w.durable, w.pending = w.all(), nil
}

// truncate cuts after a random entry, synced or not.
func (w *walk) truncate() {
	all := w.all()
	if len(all) == 0 {
		return
	}
	z := all[w.rng.IntN(len(all))].Zxid
	w.begin("TruncateAfter(%v) of %d files", z, len(w.l.segs))
	if err := w.l.TruncateAfter(z); err != nil {
		w.fail("TruncateAfter: %v", err)
	}
	// At the last entry it is a no-op: pending entries stay pending.
	// Otherwise it writes and fsyncs what it keeps.
	if z < all[len(all)-1].Zxid {
		w.durable, w.pending = entriesUpTo(all, z), nil
		w.floor = min(w.floor, z)
	}
}

// remove drops the files below a random synced entry.
func (w *walk) remove() {
	if len(w.durable) == 0 {
		return
	}
	z := w.durable[w.rng.IntN(len(w.durable))].Zxid
	w.begin("RemoveBefore(%v) of %d files", z, len(w.l.segs))
	if err := w.l.RemoveBefore(z); err != nil {
		w.fail("RemoveBefore: %v", err)
	}
	w.floor = max(w.floor, z)
}

// closeReopen closes cleanly, which makes every entry durable.
func (w *walk) closeReopen() {
	w.begin("Close and reopen")
	if err := w.l.Close(); err != nil {
		w.fail("Close: %v", err)
	}
	w.durable, w.pending = w.all(), nil
	w.open()
}

// crashReopen kills the log as a crash of the process would, or of the
// machine (powerLoss: unsynced pages of the newest file may be lost), and
// reopens it.
func (w *walk) crashReopen(powerLoss bool) {
	if !powerLoss {
		w.begin("process crash and reopen")
		crash(w.l)
		w.open()
		w.checkReopened()
		return
	}
	w.begin("power loss and reopen")
	w.l.mu.Lock()
	var path string
	var fsynced int64
	if w.l.f != nil {
		path, fsynced = w.l.f.Name(), w.l.fsynced
	}
	w.l.mu.Unlock()
	crash(w.l)
	// Older files were fsynced in full before the newest one was created.
	if path != "" {
		w.loseUnsyncedPages(path, fsynced)
	}
	w.open()
	w.checkReopened()
}

// loseUnsyncedPages does to path what a power loss may: each page past the
// last fsync (at fsynced) keeps its new bytes or loses them (zeros: what a
// spare or preallocated space held, or what the file's end cut off).
func (w *walk) loseUnsyncedPages(path string, fsynced int64) {
	b, err := os.ReadFile(path)
	if err != nil {
		w.fail("power loss: %v", err)
	}
	changed := false
	for p := fsynced / pageSize * pageSize; p < int64(len(b)); p += pageSize {
		if w.rng.IntN(2) == 0 {
			continue
		}
		clear(b[max(p, fsynced):min(p+pageSize, int64(len(b)))])
		changed = true
	}
	if !changed {
		return
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		w.fail("power loss: %v", err)
	}
}

// checkReopened: a reopened log keeps every synced entry and a prefix of
// the unsynced ones, which are durable from then on (syncOpened).
func (w *walk) checkReopened() {
	got, err := w.l.Entries(w.floor)
	if err != nil {
		w.fail("Entries after reopening: %v", err)
	}
	want := entriesAbove(w.durable, w.floor)
	if len(got) < len(want) {
		w.fail("reopened log lost synced entries: has %d of %d above %v (repaired: %q)", len(got), len(want), w.floor, w.l.Repaired())
	}
	all := entriesAbove(w.all(), w.floor)
	if len(got) > len(all) {
		w.fail("reopened log has %d entries above %v, only %d were written", len(got), w.floor, len(all))
	}
	if d := cmp.Diff(all[:len(got)], got, cmpOpts); d != "" {
		w.fail("reopened log is no prefix of what was written -want +got:\n%s", d)
	}
	keep := len(w.durable) - len(want) + len(got)
	w.durable, w.pending = w.all()[:keep], nil
}

// waitSpare lets a spare being written finish, so that the next rotation
// takes it; without the wait most walks would rotate before one is ready.
func (w *walk) waitSpare() {
	w.begin("wait for the spare")
	s := w.l.spare
	if s == nil {
		return
	}
	wait.For(w.t, fmt.Sprintf("the spare's goroutine (seed %d, options %+v)", w.seed, w.opts), 30*time.Second, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return !s.busy
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ready > 0 {
		w.spares++
		if s.direct {
			w.direct++
		}
	}
}

func (w *walk) toggleForceSync() {
	w.noFsync = !w.noFsync
	w.begin("SetForceSync(%v)", !w.noFsync)
	w.l.SetForceSync(!w.noFsync)
	if !w.noFsync {
		// Fsyncs what was only written meanwhile, so the model of a
		// power loss holds again.
		w.begin("Sync")
		w.sync()
	}
}

// check compares the log with the model and the newest file's tail with
// what the padding and preallocation may leave there.
func (w *walk) check() {
	w.checkEntries()
	w.checkTail()
}

func (w *walk) checkEntries() {
	got, err := w.l.Entries(w.floor)
	if err != nil {
		w.fail("Entries: %v", err)
	}
	want := entriesAbove(w.durable, w.floor)
	if len(got) > len(want) && len(w.pending) > 0 {
		// A rotation fsyncs the full file, pending entries included:
		// those are durable too.
		if all := entriesAbove(w.all(), w.floor); len(got) <= len(all) {
			want = all[:len(got)]
			w.promote(got[len(got)-1].Zxid)
		}
	}
	if d := cmp.Diff(want, got, cmpOpts); d != "" {
		w.fail("Entries(%v) -want +got:\n%s", w.floor, d)
	}
}

// promote moves the pending entries up to last to the durable ones.
func (w *walk) promote(last core.Zxid) {
	k := 0
	for k < len(w.pending) && w.pending[k].Zxid <= last {
		k++
	}
	w.durable, w.pending = append(w.durable, w.pending[:k]...), w.pending[k:]
}

// checkTail: after the records' end (l.off) the newest file holds zeros
// only, and it is no longer than its preallocation or its records.
func (w *walk) checkTail() {
	l := w.l
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil || l.err != nil {
		return
	}
	if l.fw.zerosTo >= l.fw.off+pageSize {
		w.padded++
	}
	if len(w.pending) > 0 {
		return // buffered records: the file does not end at l.off yet
	}
	fi, err := l.f.Stat()
	if err != nil {
		w.fail("stat: %v", err)
	}
	if lim := max(l.alloc, l.off); fi.Size() > lim {
		w.fail("%s is %d bytes, more than max(preallocated %d, records' end %d)", l.f.Name(), fi.Size(), l.alloc, l.off)
	}
	junk, err := hasNonZero(l.f, l.off, fi.Size())
	if err != nil {
		w.fail("read: %v", err)
	}
	if junk {
		w.fail("non-zero bytes after the records' end %d in %s (%d bytes)", l.off, l.f.Name(), fi.Size())
	}
}
