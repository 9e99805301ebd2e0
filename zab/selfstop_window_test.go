package zab

import (
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"zablab/internal/wait"
)

// holdLooking holds the Status(LOOKING) a failing peer sends as it stops,
// once armed: the window between a Propose failing with the peer's
// failure and the end of the peer's goroutine stays open while the test
// acts in it.
type holdLooking struct {
	*recorder
	armed   atomic.Bool
	entered chan struct{}
	release chan struct{}
}

func (h *holdLooking) Status(s Status, leader string) {
	h.recorder.Status(s, leader)
	if s == Looking && h.armed.CompareAndSwap(true, false) {
		close(h.entered)
		<-h.release
	}
}

// TestStartupWhileStoppingByItselfSaysSo: an application that hears
// LOOKING from a peer whose disk failed (or whose Propose already fails
// with that failure) and restarts it at once was told "Startup called
// twice": the peer refuses requests and says LOOKING before its goroutine
// has ended, and Startup looked only at the goroutine's end.
func TestStartupWhileStoppingByItselfSaysSo(t *testing.T) {
	logOf := gateLogs(t)
	dir := filepath.Join(t.TempDir(), "log")
	cfg := Config{ID: 1, DataLogDir: dir, TickTime: 10 * time.Millisecond, InitLimit: 10, SyncLimit: 5,
		SnapCount: 100, Logger: quietLogger()}
	h := &holdLooking{recorder: &recorder{}, entered: make(chan struct{}), release: make(chan struct{})}
	z, err := NewSingleZabFromConfig(h, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Shutdown()
	if err := z.Startup(); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "the lone peer to lead", 10*time.Second, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.status == Leading // its own LOOKING, if any, went before
	})
	g := logOf(dir)
	g.mu.Lock()
	g.fail = true // the next fsync fails: the peer cannot go on safely
	g.mu.Unlock()
	h.armed.Store(true)
	released := false
	defer func() {
		if !released {
			close(h.release)
		}
	}()
	wait.For(t, "the failing peer's LOOKING", 10*time.Second, func() bool {
		select {
		case <-h.entered:
			return true
		default:
			z.Propose([]byte("m"))
			return false
		}
	})
	_, perr := z.Propose([]byte("m"))
	err = z.Startup()
	close(h.release)
	released = true
	if !errors.Is(perr, ErrClosed) {
		t.Fatalf("Propose once the peer said LOOKING on its failure: %v; want ErrClosed", perr)
	}
	if err == nil || strings.Contains(err.Error(), "twice") || !errors.Is(err, ErrStorage) || !strings.Contains(err.Error(), "Shutdown") {
		t.Fatalf("Startup once the peer said LOOKING on its failure: %v; want its failure (ErrStorage) and Shutdown named", err)
	}
}
