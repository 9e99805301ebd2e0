package zktest

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"zablab/internal/ports"
)

// A Server is one running server for tests.
type Server struct {
	Kind  string   // what runs: "Apache ZooKeeper" or "zablab"
	Addrs []string // host:port for clients
	stop  func()
	dir   string
}

// Stop ends the server and removes its files.
func (s *Server) Stop() {
	s.stop()
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}

// UseRealZK says whether the tests run against Apache ZooKeeper.
func UseRealZK() bool { return os.Getenv("ZABLAB_REAL_ZK") == "1" }

// errSkip marks errors that mean "cannot run here", not "broken".
var errSkip = errors.New("zktest: no server available")

// New starts a fresh server: ours, or Apache ZooKeeper with ZABLAB_REAL_ZK=1.
func New() (*Server, error) {
	dir, err := os.MkdirTemp("", "zktest-")
	if err != nil {
		return nil, fmt.Errorf("zktest: %w", err)
	}
	p, err := ports.Free(1)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("zktest: %w", err)
	}
	s, err := start(dir, p[0])
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s.dir = dir
	return s, nil
}

var shared struct {
	once sync.Once
	srv  *Server
	err  error
}

// Shared returns the package's server, started on first use; a test that
// cannot have one is skipped (no Java, no ZooKeeper) or fails.
func Shared(t testing.TB) *Server {
	t.Helper()
	shared.once.Do(func() { shared.srv, shared.err = New() })
	if shared.err != nil {
		if errors.Is(shared.err, errSkip) {
			t.Skip(shared.err)
		}
		t.Fatal(shared.err)
	}
	return shared.srv
}

// Main runs the package's tests and stops the shared server after them.
// Use it as TestMain: func TestMain(m *testing.M) { zktest.Main(m) }.
func Main(m *testing.M) {
	code := m.Run()
	if shared.srv != nil {
		shared.srv.Stop()
	}
	os.Exit(code)
}

var roots struct {
	sync.Mutex
	byTest map[testing.TB]string
	runs   map[string]int
}

// Root names a node for t's own nodes ("/TestLock_contention-1"); the
// test creates it. The same t gets the same name; a rerun of the test
// (-count) gets a fresh one, since the shared server keeps the old nodes.
func Root(t testing.TB) string {
	roots.Lock()
	defer roots.Unlock()
	if r, ok := roots.byTest[t]; ok {
		return r
	}
	if roots.byTest == nil {
		roots.byTest, roots.runs = map[testing.TB]string{}, map[string]int{}
	}
	name := strings.NewReplacer("/", "_", " ", "_", "#", "_").Replace(t.Name())
	roots.runs[name]++
	r := fmt.Sprintf("/%s-%d", name, roots.runs[name])
	roots.byTest[t] = r
	return r
}
