package zab

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zablab/internal/wait"
)

// TestStartupAfterStoppingByItselfSaysSo: a peer whose disk failed stops
// by itself; an application that then calls Startup again (to restart
// it) was told "Startup called twice", which it had not done, and not
// why the peer stopped nor what to do. Startup must name the failure and
// the way out the contract offers: Shutdown (which returns the failure),
// then a new Zab, since Startup after Shutdown is refused.
func TestStartupAfterStoppingByItselfSaysSo(t *testing.T) {
	logOf := gateLogs(t)
	dir := filepath.Join(t.TempDir(), "log")
	cfg := Config{ID: 1, DataLogDir: dir, TickTime: 10 * time.Millisecond, InitLimit: 10, SyncLimit: 5,
		SnapCount: 100, Logger: quietLogger()}
	z, err := NewSingleZabFromConfig(&recorder{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Shutdown()
	if err := z.Startup(); err != nil {
		t.Fatal(err)
	}
	g := logOf(dir)
	g.mu.Lock()
	g.fail = true // the next fsync fails: the peer cannot go on safely
	g.mu.Unlock()
	wait.For(t, "the peer to stop by itself on a failed fsync", 10*time.Second, func() bool {
		_, err := z.Propose([]byte("m"))
		return errors.Is(err, ErrClosed)
	})
	err = z.Startup()
	if err == nil || strings.Contains(err.Error(), "twice") || !errors.Is(err, ErrStorage) ||
		!strings.Contains(err.Error(), "injected") || !strings.Contains(err.Error(), "Shutdown") {
		t.Fatalf("Startup after the peer stopped by itself: %v; want its failure (ErrStorage, the injected error) and Shutdown named", err)
	}
	if err := z.Shutdown(); !errors.Is(err, ErrStorage) {
		t.Fatalf("Shutdown after the failure: %v; want ErrStorage", err)
	}
}
