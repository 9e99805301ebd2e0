package server

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/sirupsen/logrus"

	"zablab/internal/wait"
	mw "zablab/mwzookeeper"
	"zablab/properties"
)

// testLogger is quiet unless ZABLAB_LOG names a level (debug, info, ...).
func testLogger() *logrus.Logger {
	l := logrus.New()
	l.SetOutput(io.Discard)
	if lv, err := logrus.ParseLevel(os.Getenv("ZABLAB_LOG")); err == nil {
		l.SetOutput(os.Stderr)
		l.SetLevel(lv)
	}
	return l
}

const testProps = "tickTime=50\nminSessionTimeout=300\nmaxSessionTimeout=3000\n4lw.commands.whitelist=*\n"

// startServer starts a Server around svc on a port of its own.
func startServer(t testing.TB, svc mw.Service, props string) *Server {
	t.Helper()
	return startServerLogged(t, svc, props, testLogger())
}

// startServerLogged is startServer with the server's logger given.
func startServerLogged(t testing.TB, svc mw.Service, props string, log logrus.FieldLogger) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p, err := properties.LoadString(props)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(p, func() mw.Service { return svc }, Options{Listener: ln, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	return s
}

type nopLog struct{}

func (nopLog) Printf(string, ...any) {}

// zkClient connects a go-zookeeper client and waits for its session.
func zkClient(t testing.TB, timeout time.Duration, addrs ...string) *zk.Conn {
	t.Helper()
	c, _, err := zk.Connect(addrs, timeout, zk.WithLogger(nopLog{}), zk.WithLogInfo(false))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	wait.For(t, "a session", 10*time.Second, func() bool { return c.State() == zk.StateHasSession })
	return c
}

// numConns is the number of client connections the server holds.
func numConns(s *Server) int { return len(s.connList()) }

// acl is the ACL every test create sends: ZooKeeper refuses an empty one.
var acl = zk.WorldACL(zk.PermAll)

// reference makes the reference Service; set by reference_test.go.
var reference mw.Factory

// startA5 starts one standalone Server around the reference Service
// (SingleZab), as mwzk-server would run it.
func startA5(t testing.TB, extra string) *Server {
	t.Helper()
	return startA5Props(t, "myid=1\ndataLogDir=log1\ntickTime=100\nminSessionTimeout=600\nmaxSessionTimeout=10000\nlog.level="+
		zabLogLevel()+"\n"+extra)
}

// startA5Props is startA5 with the whole properties text.
func startA5Props(t testing.TB, text string) *Server {
	t.Helper()
	if reference == nil {
		t.Skip("the reference Service (solutions/aufgabe5) is not in this tree")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "peer1.properties")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := properties.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(p, reference, Options{Listener: ln, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop() })
	wait.For(t, "the server serving", 30*time.Second, s.isServing)
	return s
}

// zabLogLevel is the log.level of the Zab peers: ZABLAB_LOG, else WARN.
func zabLogLevel() string {
	if lv := os.Getenv("ZABLAB_LOG"); lv != "" {
		return lv
	}
	return "WARN"
}

// sameLines fails t for every line where ours (got) differs from what
// Apache ZooKeeper gave (want) for the same script.
func sameLines(t *testing.T, want, got []string) {
	t.Helper()
	linesAlike(t, want, got, func(w, g string) bool { return w == g })
}

// linesAlike is sameLines with alike deciding whether two lines agree.
func linesAlike(t *testing.T, want, got []string, alike func(w, g string) bool) {
	t.Helper()
	for i, p := range linePairs(want, got) {
		if !alike(p[0], p[1]) {
			t.Errorf("line %d:\n\tZooKeeper: %s\n\tours:      %s", i+1, p[0], p[1])
		}
	}
}

// linePairs pairs the lines of want and got by index, "" past the end of
// the shorter one.
func linePairs(want, got []string) [][2]string {
	pairs := make([][2]string, max(len(want), len(got)))
	for i := range pairs {
		if i < len(want) {
			pairs[i][0] = want[i]
		}
		if i < len(got) {
			pairs[i][1] = got[i]
		}
	}
	return pairs
}

// againstZooKeeper compares got with ZooKeeper's want line by line
// (alike: nil for equal lines) and logs both transcripts when they differ
// or ZABLAB_DIFFFUZZ_SHOW is set.
func againstZooKeeper(t *testing.T, want, got []string, alike func(w, g string) bool) {
	t.Helper()
	if alike == nil {
		sameLines(t, want, got)
	} else {
		linesAlike(t, want, got, alike)
	}
	if t.Failed() || os.Getenv("ZABLAB_DIFFFUZZ_SHOW") != "" {
		t.Logf("ZooKeeper:\n%s\nours:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

// scripter runs the script's steps and writes down what each gave.
type scripter struct {
	t   *testing.T
	out []string
}

func (s *scripter) note(step string, err error, what ...any) {
	res := "ok"
	if err != nil {
		res = "error: " + err.Error()
	}
	if len(what) > 0 && err == nil {
		res += " " + fmt.Sprint(what...)
	}
	s.out = append(s.out, step+": "+res)
}

// aclText prints an ACL as the differential scripts compare it.
func aclText(acl []zk.ACL) string {
	var b strings.Builder
	for _, a := range acl {
		fmt.Fprintf(&b, "[%d %s:%s]", a.Perms, a.Scheme, a.ID)
	}
	return b.String()
}
