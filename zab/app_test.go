package zab

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/internal/wait"
)

// recorder is the test application: its state is the list of delivered
// messages, so GetState and SetState are exercised in full.
type recorder struct {
	mu     sync.Mutex
	msgs   []string
	ids    []TxnCookie
	status Status
	leader string
	syncs  map[uint64]int // sync seq → deliveries when it fired
	setAt  Zxid           // the zxid of the last SetState's snapshot
	// onDeliver, if set, runs after each delivery, outside mu: tests
	// propose from inside Deliver through it.
	onDeliver func(m string)
}

func (r *recorder) Deliver(id TxnCookie, m []byte) {
	r.mu.Lock()
	r.msgs, r.ids = append(r.msgs, string(m)), append(r.ids, id)
	hook := r.onDeliver
	r.mu.Unlock()
	if hook != nil {
		hook(string(m))
	}
}

func (r *recorder) DeliverSync(id TxnCookie) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.syncs == nil {
		r.syncs = map[uint64]int{}
	}
	r.syncs[id.Seq] = len(r.msgs)
}

func (r *recorder) Status(s Status, leader string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status, r.leader = s, leader
}

func (r *recorder) GetState(w io.Writer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b []byte
	for _, m := range r.msgs {
		b = binary.AppendUvarint(b, uint64(len(m)))
		b = append(b, m...)
	}
	_, err := w.Write(b)
	return err
}

func (r *recorder) SetState(rd io.Reader, c TxnCookie) error {
	b, err := io.ReadAll(rd)
	if err != nil {
		return err
	}
	var msgs []string
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < n {
			return fmt.Errorf("state is torn")
		}
		msgs, b = append(msgs, string(b[k:k+int(n)])), b[k+int(n):]
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs, r.ids, r.setAt = msgs, nil, c.Zxid
	return nil
}

// newest is the zxid of the newest transaction the application holds.
func (r *recorder) newest() Zxid {
	r.mu.Lock()
	defer r.mu.Unlock()
	z := r.setAt
	for _, id := range r.ids {
		z = max(z, id.Zxid)
	}
	return z
}

func (r *recorder) snapshot() ([]string, Status) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.msgs...), r.status
}

// ensemble is n MultiZab peers on 127.0.0.1 with fresh data folders.
type ensemble struct {
	t    *testing.T
	cfgs []Config
	apps []*recorder
	zabs []*MultiZab
	lns  []net.Listener
}

func quietLogger() logrus.FieldLogger {
	l := logrus.New()
	l.SetOutput(io.Discard)
	return l
}

func newEnsemble(t *testing.T, n int) *ensemble {
	e := &ensemble{t: t}
	var peers []Peer
	for i := 1; i <= n; i++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		e.lns = append(e.lns, ln)
		peers = append(peers, Peer{ID: uint64(i), Addr: ln.Addr().String()})
	}
	dir := t.TempDir()
	for i := 1; i <= n; i++ {
		e.cfgs = append(e.cfgs, Config{ID: uint64(i), Peers: peers, TickTime: 20 * time.Millisecond,
			InitLimit: 10, SyncLimit: 5, SnapCount: 50, Logger: quietLogger(),
			DataLogDir: filepath.Join(dir, fmt.Sprint(i), "log"), DataSnapDir: filepath.Join(dir, fmt.Sprint(i), "snap")})
		e.apps = append(e.apps, &recorder{})
		e.zabs = append(e.zabs, nil)
	}
	return e
}

// start starts peer i (1-based) with its listener (rebinding after a stop).
func (e *ensemble) start(i int) {
	e.t.Helper()
	ln := e.lns[i-1]
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", e.cfgs[i-1].Peers[i-1].Addr); err != nil {
			e.t.Fatal(err)
		}
	}
	e.lns[i-1] = nil
	z, err := newMultiZab(e.apps[i-1], e.cfgs[i-1], ln)
	if err == nil {
		err = z.Startup()
	}
	if err != nil {
		e.t.Fatalf("peer %d: %v", i, err)
	}
	e.zabs[i-1] = z
}

// traceTo gives every peer a trace file peer<i>.trace in dir, each at
// most maxBytes long.
func (e *ensemble) traceTo(dir string, maxBytes int64) {
	for i := range e.cfgs {
		e.cfgs[i].TraceFile = filepath.Join(dir, fmt.Sprintf("peer%d.trace", i+1))
		e.cfgs[i].TraceMaxBytes = maxBytes
	}
}

// startAll starts every peer and waits until they have settled.
func (e *ensemble) startAll() {
	e.t.Helper()
	for i := range e.cfgs {
		e.start(i + 1)
	}
	wait.For(e.t, "a settled ensemble", 10*time.Second, e.settled)
}

func (e *ensemble) stop(i int) {
	e.t.Helper()
	if err := e.zabs[i-1].Shutdown(); err != nil {
		e.t.Fatalf("peer %d shutdown: %v", i, err)
	}
	e.zabs[i-1] = nil
	e.apps[i-1] = &recorder{}
}

func (e *ensemble) stopAll() {
	for i, z := range e.zabs {
		if z != nil {
			e.stop(i + 1)
		}
	}
	for _, ln := range e.lns {
		if ln != nil {
			ln.Close()
		}
	}
}

// leader returns the 1-based index of the peer that says it leads, or 0.
func (e *ensemble) leader() int {
	for i, a := range e.apps {
		if _, s := a.snapshot(); s == Leading && e.zabs[i] != nil {
			return i + 1
		}
	}
	return 0
}

// settled reports whether every running peer follows or leads.
func (e *ensemble) settled() bool {
	for i, a := range e.apps {
		if _, s := a.snapshot(); e.zabs[i] != nil && s == Looking {
			return false
		}
	}
	return e.leader() != 0
}

// propose retries while the ensemble elects a leader.
func (e *ensemble) propose(i int, msg string) {
	e.t.Helper()
	wait.For(e.t, "a leader to take "+msg, 10*time.Second, func() bool {
		_, err := e.zabs[i-1].Propose([]byte(msg))
		return err == nil
	})
}

// commit proposes msg from peer i until one attempt is delivered
// everywhere; a proposal in flight when a leader fails may be lost. It
// returns the message that made it.
func (e *ensemble) commit(i int, msg string) string {
	e.t.Helper()
	for attempt := 0; attempt < 50; attempt++ {
		m := fmt.Sprintf("%s#%d", msg, attempt)
		e.propose(i, m)
		deadline := time.Now().Add(time.Second)
		for time.Now().Before(deadline) {
			if e.allHave(m) {
				return m
			}
			e.poll()
		}
	}
	e.t.Fatalf("%s never delivered everywhere", msg)
	return ""
}

// poll waits one polling interval.
func (e *ensemble) poll() { <-time.After(2 * time.Millisecond) }

// allHave reports whether every running peer delivered msgs, in this
// order (other messages may come between them).
func (e *ensemble) allHave(msgs ...string) bool {
	for i, a := range e.apps {
		got, _ := a.snapshot()
		if e.zabs[i] != nil && !subsequence(msgs, got) {
			return false
		}
	}
	return true
}

func subsequence(want, got []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

func (e *ensemble) agree() {
	e.t.Helper()
	var ref []string
	for i, a := range e.apps {
		if e.zabs[i] == nil {
			continue
		}
		got, _ := a.snapshot()
		if ref == nil {
			ref = got
		} else if fmt.Sprint(got) != fmt.Sprint(ref) {
			e.t.Fatalf("peers disagree:\n%v\n%v", ref, got)
		}
	}
}

// noLeakedGoroutines waits until the goroutine count is back to base.
func noLeakedGoroutines(t *testing.T, base int) {
	t.Helper()
	ok := false
	defer func() {
		if !ok {
			buf := make([]byte, 1<<16)
			t.Logf("goroutines:\n%s", buf[:runtime.Stack(buf, true)])
		}
	}()
	wait.For(t, fmt.Sprintf("goroutines back to %d", base), 5*time.Second, func() bool { return runtime.NumGoroutine() <= base })
	ok = true
}
