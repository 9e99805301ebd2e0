package zab

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"zablab/internal/wait"
	"zablab/zab/storage"
	"zablab/zab/trace"
)

// gatedLog holds Sync while its gate is shut, as a disk that takes long to
// flush; with fail set, a Sync that passes the gate fails, as a disk that
// dies during a long flush.
type gatedLog struct {
	storage.Log
	mu      sync.Mutex
	shut    chan struct{} // nil: open
	entered chan struct{} // closed when a Sync waits at the shut gate
	fail    bool
}

func (l *gatedLog) Sync() error {
	l.mu.Lock()
	gate, entered := l.shut, l.entered
	l.mu.Unlock()
	if gate != nil {
		select {
		case <-entered:
		default:
			close(entered)
		}
		<-gate
	}
	l.mu.Lock()
	fail := l.fail
	l.mu.Unlock()
	if fail {
		return errors.New("injected: the disk died during fsync")
	}
	return l.Log.Sync()
}

func (l *gatedLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.shut, l.entered = make(chan struct{}), make(chan struct{})
}

func (l *gatedLog) open() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shut != nil {
		close(l.shut)
		l.shut = nil
	}
}

// gateLogs wraps the log of every store the test opens in a gatedLog; the
// function it returns finds the one of a log folder.
func gateLogs(t *testing.T) func(logDir string) *gatedLog {
	var mu sync.Mutex
	logs := map[string]*gatedLog{}
	openStore = func(logDir, snapDir string) (*storage.Store, error) {
		st, err := storage.OpenFileStore(logDir, snapDir)
		if err == nil {
			g := &gatedLog{Log: st.Log}
			st.Log = g
			mu.Lock()
			logs[filepath.Clean(logDir)] = g
			mu.Unlock()
		}
		return st, err
	}
	t.Cleanup(func() { openStore = storage.OpenFileStore })
	return func(logDir string) *gatedLog {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		g := logs[filepath.Clean(logDir)]
		if g == nil {
			t.Fatalf("no log was opened in %s", logDir)
		}
		return g
	}
}

// The leader's own fsync used to hold its protocol goroutine: the
// followers' ACKs, which make a quorum without it, waited until its disk
// was done. With the disk writer the leader commits, delivers and sends
// COMMIT while its fsync is still under way.
func TestLeaderCommitsWhileItsOwnFsyncWaits(t *testing.T) {
	gateOf := gateLogs(t)
	e := newEnsemble(t, 3)
	defer e.stopAll()
	e.startAll()
	first := e.commit(1, "first")
	l := e.leader()
	g := gateOf(e.cfgs[l-1].DataLogDir)
	g.close()
	defer g.open() // before stopAll: Shutdown waits for the write under way
	e.propose(l, "while the leader syncs")
	select {
	case <-g.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the leader never synced the proposal")
	}
	wait.For(t, "delivery everywhere while the leader's fsync waits", 5*time.Second,
		func() bool { return e.allHave(first, "while the leader syncs") })
	g.open()
	e.commit(l, "after")
	e.agree()
}

// An ACK vouches for the log up to its zxid: with the disk writer it must
// still leave only after that much of the log was synced. Every traced
// ACK of a loaded ensemble is checked against the appends its sender had
// recorded as durable before it (the tracer records an append when its
// fsync is done).
func TestAcksLeaveOnlyAfterTheirFsync(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	dir := t.TempDir()
	e.traceTo(dir, 64<<20)
	e.startAll()
	var wg sync.WaitGroup
	for p := 1; p <= 3; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 100 { // one at a time per proposer: many small batches
				m := fmt.Sprintf("p%d-%d", p, k)
				if _, err := e.zabs[p-1].Propose([]byte(m)); err != nil {
					t.Errorf("peer %d: %v", p, err)
					return
				}
				if !delivered(e.apps[p-1], m, 10*time.Second) {
					t.Errorf("peer %d never delivered its own %s", p, m)
					return
				}
			}
		}()
	}
	wg.Wait()
	last := e.commit(1, "last")
	e.stopAll()
	acks := 0
	for i := range e.cfgs {
		evs, err := trace.ReadFile(e.cfgs[i].TraceFile)
		if err != nil {
			t.Fatal(err)
		}
		var durable trace.Zxid
		for _, ev := range evs {
			switch {
			case ev.Kind == trace.KindAppend:
				durable = max(durable, ev.Last)
			case ev.Kind == trace.KindSend && ev.Msg.Type == "ACK":
				acks++
				if ev.Msg.Zxid > durable {
					t.Fatalf("peer %d sent an ACK for %v with its log durable only up to %v", i+1, ev.Msg.Zxid, durable)
				}
			}
		}
	}
	if acks < 100 {
		t.Fatalf("%d ACKs in the traces after %q: the check saw too little", acks, last)
	}
	t.Logf("%d ACKs checked", acks)
}

// delivered waits until app delivered m, or gives up after d.
func delivered(app *recorder, m string, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		got, _ := app.snapshot()
		if slices.Contains(got, m) {
			return true
		}
		<-time.After(time.Millisecond)
	}
	return false
}

// A follower whose disk stalls must not take entries without bound: beyond
// maxInflightBytes its goroutine waits for the disk, as before the disk
// writer, and the leader goes on with the other follower.
func TestStalledDiskBoundsTheEntriesInFlight(t *testing.T) {
	old := maxInflightBytes
	maxInflightBytes = 1 << 20
	t.Cleanup(func() { maxInflightBytes = old })
	gateOf := gateLogs(t)
	e := newEnsemble(t, 3)
	defer e.stopAll()
	e.startAll()
	e.commit(1, "first")
	l := e.leader()
	f := l%3 + 1
	g := gateOf(e.cfgs[f-1].DataLogDir)
	g.close()
	defer g.open() // before stopAll: Shutdown waits for the write under way
	value := strings.Repeat("v", 256<<10)
	var sent []string
	for k := range 24 { // 6 MiB, one at a time: no batch carries more than one
		m := fmt.Sprintf("big%d-%s", k, value)
		e.propose(l, m)
		if !delivered(e.apps[l-1], m, 10*time.Second) {
			t.Fatalf("the leader never delivered big%d with one follower's disk stalled", k)
		}
		sent = append(sent, m)
	}
	// The stalled follower was handed entries while its disk waited only
	// up to the bound: then its goroutine waited too, and it delivered no
	// more of what the leader and the other follower committed.
	got, _ := e.apps[f-1].snapshot()
	took := 0
	for _, m := range got {
		if strings.HasPrefix(m, "big") {
			took++
		}
	}
	g.open()
	wait.For(t, "everything everywhere once the disk is back", 20*time.Second, func() bool { return e.allHave(sent...) })
	if most := maxInflightBytes/len(value) + 2; took > most {
		t.Fatalf("the follower whose disk stalled delivered %d of the %d big entries meanwhile; want at most %d", took, len(sent), most)
	}
	t.Logf("the follower whose disk stalled delivered %d of %d big entries meanwhile", took, len(sent))
}
