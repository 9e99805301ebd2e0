package zab

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
)

// lockedBuffer is a log output read while the peer may still write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestFailedStartupLogsNoRole: a peer whose Startup fails (its Zab port
// is taken, its trace file cannot be created) never ran, and its log must
// not say otherwise. The core was built, and logged "becoming LOOKING:
// start", before the transport and the trace were opened, so the
// operator read a role change and then the failure.
func TestFailedStartupLogsNoRole(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	notDir := filepath.Join(t.TempDir(), "afile")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		peers []Peer
		trace string
	}{
		{"taken Zab port", []Peer{{ID: 1, Addr: "127.0.0.1:1"}, {ID: 2, Addr: taken.Addr().String()}}, ""},
		{"unusable trace.file", []Peer{{ID: 1, Addr: "127.0.0.1:1"}, {ID: 2, Addr: "127.0.0.1:0"}},
			filepath.Join(notDir, "peer2.trace")},
	}
	for _, c := range cases {
		out := &lockedBuffer{}
		lg := logrus.New()
		lg.SetOutput(out)
		lg.SetLevel(logrus.DebugLevel)
		dir := t.TempDir()
		cfg := Config{ID: 2, Peers: c.peers, TickTime: 20 * time.Millisecond, InitLimit: 10, SyncLimit: 5,
			Logger: lg, DataLogDir: filepath.Join(dir, "log"), TraceFile: c.trace}
		z, err := NewMultiZabFromConfig(&recorder{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		err = z.Startup()
		z.Shutdown()
		if err == nil {
			t.Errorf("%s: Startup succeeded", c.name)
			continue
		}
		for _, line := range strings.Split(out.String(), "\n") {
			if strings.Contains(line, "LOOKING") || strings.Contains(line, "peer started") {
				t.Errorf("%s: Startup failed (%v), but the log said: %s", c.name, err, line)
			}
		}
	}
}
