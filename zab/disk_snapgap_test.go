package zab

import (
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"zablab/internal/wait"
	"zablab/zab/core"
	"zablab/zab/storage"
)

// syncedLog tracks the newest zxid its Sync made durable.
type syncedLog struct {
	*gatedLog
	mu               sync.Mutex
	appended, synced core.Zxid
}

func (l *syncedLog) Append(es []core.Entry) error {
	if len(es) > 0 {
		l.mu.Lock()
		l.appended = es[len(es)-1].Zxid
		l.mu.Unlock()
	}
	return l.gatedLog.Append(es)
}

func (l *syncedLog) Sync() error {
	l.mu.Lock()
	upto := l.appended
	l.mu.Unlock()
	err := l.gatedLog.Sync()
	if err == nil {
		l.mu.Lock()
		l.synced = max(l.synced, upto)
		l.mu.Unlock()
	}
	return err
}

// checkedSnaps reports a snapshot saved above what its peer's log had
// synced at that moment.
type checkedSnaps struct {
	*storage.FileSnapshots
	log   *syncedLog
	ahead chan string // buffered; a report per snapshot ahead of the log
	saved chan core.Zxid
}

func (s *checkedSnaps) SaveFrom(meta core.SnapshotMeta, write func(io.Writer) error) error {
	s.log.mu.Lock()
	synced := s.log.synced
	s.log.mu.Unlock()
	if meta.Zxid > synced {
		select {
		case s.ahead <- fmt.Sprintf("snapshot at %v with the log synced up to %v", meta.Zxid, synced):
		default:
		}
	}
	err := s.FileSnapshots.SaveFrom(meta, write)
	if err == nil {
		select {
		case s.saved <- meta.Zxid:
		default:
		}
	}
	return err
}

// The disk writer lets a quorum of followers commit, and so this peer
// deliver, entries its own log has not synced. A snapshot taken then would
// be ahead of the log on disk: after a crash the restarted peer appends
// after the snapshot and leaves a hole below it, which an older snapshot
// restored in place of a damaged newest one would expose (storage's rule:
// never an older snapshot plus a log with a gap). A peer takes a snapshot
// only on a log synced up to it.
func TestSnapshotNeverAheadOfTheLogOnDisk(t *testing.T) {
	var mu sync.Mutex
	logs := map[string]*syncedLog{}
	snaps := map[string]*checkedSnaps{}
	openStore = func(logDir, snapDir string) (*storage.Store, error) {
		st, err := storage.OpenFileStore(logDir, snapDir)
		if err == nil {
			l := &syncedLog{gatedLog: &gatedLog{Log: st.Log}}
			s := &checkedSnaps{FileSnapshots: st.Snapshots.(*storage.FileSnapshots), log: l,
				ahead: make(chan string, 1), saved: make(chan core.Zxid, 64)}
			st.Log, st.Snapshots = l, s
			mu.Lock()
			logs[logDir], snaps[logDir] = l, s
			mu.Unlock()
		}
		return st, err
	}
	t.Cleanup(func() { openStore = storage.OpenFileStore })
	e := newEnsemble(t, 3)
	for i := range e.cfgs {
		e.cfgs[i].SnapCount = 4
	}
	defer e.stopAll()
	e.startAll()
	l := e.leader()
	for k := range 9 {
		e.commit(l, fmt.Sprintf("open%d", k))
	}
	a := e.apps[l-1]
	a.mu.Lock()
	lastOpen := a.ids[len(a.ids)-1].Zxid
	a.mu.Unlock()
	mu.Lock()
	g, s := logs[e.cfgs[l-1].DataLogDir], snaps[e.cfgs[l-1].DataLogDir]
	mu.Unlock()
	g.close()
	defer g.open() // before stopAll: Shutdown waits for the write under way
	var gated []string
	for k := range 8 {
		gated = append(gated, fmt.Sprintf("gated%d", k))
		e.propose(l, gated[k])
	}
	// The followers' ACKs commit them; the leader delivers four, and a
	// snapshot is due while its fsync still waits.
	wait.For(t, "four deliveries on the leader while its fsync waits", 10*time.Second, func() bool {
		got, _ := e.apps[l-1].snapshot()
		return subsequence(gated[:4], got)
	})
	select {
	case msg := <-s.ahead:
		t.Fatalf("the leader took a %s", msg)
	case <-time.After(time.Second): // a snapshot goroutine would have started at once
	}
	g.open()
	wait.For(t, "everything delivered everywhere", 10*time.Second, func() bool { return e.allHave(gated...) })
	wait.For(t, "a snapshot of the gated deliveries", 10*time.Second, func() bool {
		for {
			select {
			case z := <-s.saved:
				if z > lastOpen {
					return true
				}
			default:
				return false
			}
		}
	})
	select {
	case msg := <-s.ahead:
		t.Fatalf("the leader took a %s", msg)
	default:
	}
}
