package zab

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"zablab/internal/wait"
	"zablab/zab/core"
	"zablab/zab/storage"
)

// secondAppendFails fails every Append after the first one once armed:
// the process dies (here: stops on a storage error) after the first chunk
// of a synchronized history reached its disk, before the rest does.
type secondAppendFails struct {
	storage.Log
	armed   *atomic.Bool
	appends atomic.Int32
}

func (l *secondAppendFails) Append(es []core.Entry) error {
	if l.armed.Load() && l.appends.Add(1) > 1 {
		return errors.New("injected: the process dies here")
	}
	return l.Log.Append(es)
}

// A lagging peer synchronized in a new epoch with a history larger than
// one message (8 MiB) gets NEWLEADER with the first chunk, then PROPOSE
// with the rest. It dies after the first chunk is on its disk, and the new
// leader dies too. Had it stored the new epoch with the first chunk (as it
// once did), it would win the next election against the peer of the old
// epoch that holds every committed message, and truncate them away.
func TestChunkedSyncCrashKeepsCommittedMessages(t *testing.T) {
	var mu sync.Mutex
	armed := &atomic.Bool{}
	var armDir string
	openStore = func(logDir, snapDir string) (*storage.Store, error) {
		st, err := storage.OpenFileStore(logDir, snapDir)
		if err != nil {
			return st, err
		}
		mu.Lock()
		defer mu.Unlock()
		if filepath.Clean(logDir) == armDir {
			st.Log = &secondAppendFails{Log: st.Log, armed: armed}
		}
		return st, nil
	}
	t.Cleanup(func() { openStore = storage.OpenFileStore })

	e := newEnsemble(t, 3)
	// 3 MiB messages under -race on a busy machine: ticks long enough that
	// neither a proposal (syncLimit) nor the 15 MiB sync (initLimit) costs
	// a leader for the time it takes.
	for i := range e.cfgs {
		e.cfgs[i].TickTime = 200 * time.Millisecond
	}
	defer e.stopAll()
	e.startAll()
	l := e.leader()
	e.commit(l, "small")
	f := e.follower()
	g := 6 - l - f
	e.stop(f) // f lags from here on

	var big []string // as committed (commit proposes again what a leader change lost)
	for k := 0; k < 5; k++ {
		big = append(big, e.commit(l, fmt.Sprintf("big%d:", k)+strings.Repeat("x", 3<<20)))
	}
	e.stop(g) // g holds every committed message, in the old epoch

	mu.Lock()
	armDir = filepath.Clean(e.cfgs[f-1].DataLogDir)
	mu.Unlock()
	armed.Store(true)
	e.start(f) // l leads a new epoch with f and syncs it by DIFF in chunks
	wait.For(t, "f dies after the first chunk of its history", 30*time.Second, func() bool {
		select {
		case <-e.zabs[f-1].done:
			return true
		default:
			return false
		}
	})
	e.stop(l)
	_ = e.zabs[f-1].Shutdown() // returns the injected error
	e.zabs[f-1], e.apps[f-1] = nil, &recorder{}
	armed.Store(false)
	mu.Lock()
	armDir = ""
	mu.Unlock()

	e.start(f)
	e.start(g)
	wait.For(t, "f and g settle", 30*time.Second, e.settled)
	last := e.commit(e.leader(), "after")
	got := func(i int) []string {
		ms, _ := e.apps[i-1].snapshot()
		var out []string
		for _, m := range ms {
			out = append(out, m[:min(len(m), 8)])
		}
		return out
	}
	if !e.allHave(append(big, last)...) {
		t.Fatalf("messages committed and delivered on peers %d and %d are lost: after the restarts (leader %d) peer %d delivered %v, peer %d delivered %v",
			l, g, e.leader(), f, got(f), g, got(g))
	}
}
