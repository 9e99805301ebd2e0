package zab

import (
	"path/filepath"
	"testing"
	"time"
)

// TestMultiZabWithoutLogger: a Config without a Logger logs to logrus's
// standard logger (newNode), as SingleZab's does; MultiZab's transport took
// the Config's nil Logger, and Startup panicked (nil pointer) opening it.
func TestMultiZabWithoutLogger(t *testing.T) {
	cfg := Config{ID: 1, Peers: []Peer{{ID: 1, Addr: "127.0.0.1:0"}, {ID: 2, Addr: "127.0.0.1:1"}},
		TickTime: 20 * time.Millisecond, InitLimit: 10, SyncLimit: 5, DataLogDir: filepath.Join(t.TempDir(), "log")}
	z, err := NewMultiZabFromConfig(&recorder{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Shutdown()
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Startup of a MultiZab whose Config has no Logger panicked: %v", r)
			}
		}()
		if err := z.Startup(); err != nil {
			t.Fatalf("Startup: %v", err)
		}
	}()
}
