package zab

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"zablab/internal/wait"
	"zablab/zab/core"
	"zablab/zab/storage"
)

// slowRemoveLog holds RemoveBefore until released, as a file system that
// takes long to give a large file's blocks back.
type slowRemoveLog struct {
	storage.Log
	entered chan struct{}
	once    sync.Once
	release chan struct{}
}

func (l *slowRemoveLog) RemoveBefore(z core.Zxid) error {
	l.once.Do(func() { close(l.entered) })
	<-l.release
	return l.Log.RemoveBefore(z)
}

// Removing the log files an older snapshot made unnecessary took 30-130 ms
// on the protocol goroutine (measured under make bench's load), and every
// write waited.
// Deliveries must go on while the removal is still under way.
func TestDeliveriesGoOnWhileOldLogFilesAreRemoved(t *testing.T) {
	slow := &slowRemoveLog{entered: make(chan struct{}), release: make(chan struct{})}
	openStore = func(logDir, snapDir string) (*storage.Store, error) {
		st, err := storage.OpenFileStore(logDir, snapDir)
		if err == nil {
			slow.Log = st.Log
			st.Log = slow
		}
		return st, err
	}
	t.Cleanup(func() { openStore = storage.OpenFileStore })
	z, app, _ := single(t, t.TempDir(), 3)
	defer func() {
		if err := z.Shutdown(); err != nil {
			t.Error(err)
		}
	}()
	defer close(slow.release) // before Shutdown, which waits for the removal
	wait.For(t, "leading", 5*time.Second, func() bool { _, s := app.snapshot(); return s == Leading })
	sent := 0
	propose := func() {
		t.Helper()
		if _, err := z.Propose([]byte(fmt.Sprintf("m%d", sent))); err != nil {
			t.Fatal(err)
		}
		sent++
		n := sent
		wait.For(t, fmt.Sprintf("delivery %d", n), 5*time.Second, func() bool { got, _ := app.snapshot(); return len(got) == n })
	}
	// A snapshot every 3 deliveries; the second one compacts down to the first.
	for removing := false; !removing; {
		if sent == 60 {
			t.Fatal("60 deliveries and no compaction started")
		}
		propose()
		select {
		case <-slow.entered:
			removing = true
		default:
		}
	}
	for range 10 {
		propose() // fails here while the removal holds the protocol goroutine
	}
}
