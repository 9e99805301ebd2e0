package server

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/ports"
	"zablab/internal/wait"
	mw "zablab/mwzookeeper"
	"zablab/properties"
	"zablab/solutions/aufgabe5"
)

// ensemble is n Servers around a Service in this process. The tests that
// start one import zablab/solutions themselves, so the student's handout,
// which leaves such files out, still compiles the rest.
type ensemble struct {
	srv   []*Server
	addrs []string
	props []*properties.Properties // each peer's, for restart
	f     mw.Factory
}

func startEnsemble(t testing.TB, n int, f mw.Factory) *ensemble {
	t.Helper()
	return startEnsembleWith(t, n, f, "")
}

// startEnsembleWith is startEnsemble with more keys in every peer's properties.
func startEnsembleWith(t testing.TB, n int, f mw.Factory, extra string) *ensemble {
	t.Helper()
	zp, err := ports.Free(n)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	e := &ensemble{f: f}
	for i := 1; i <= n; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "myid=%d\ndataLogDir=log%d\ntickTime=100\ninitLimit=20\nsyncLimit=10\n", i, i)
		for j, port := range zp {
			fmt.Fprintf(&b, "peer%d=127.0.0.1:%d\n", j+1, port)
		}
		fmt.Fprintf(&b, "minSessionTimeout=600\nmaxSessionTimeout=10000\nlog.level=%s\n%s", zabLogLevel(), extra)
		file := filepath.Join(dir, fmt.Sprintf("peer%d.properties", i))
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
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
		s, err := New(p, f, Options{Listener: ln, Logger: testLogger().WithField("peer", i)})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Stop() })
		e.srv = append(e.srv, s)
		e.addrs = append(e.addrs, ln.Addr().String())
		e.props = append(e.props, p)
	}
	wait.For(t, "every server serving", 30*time.Second, func() bool {
		for _, s := range e.srv {
			if !s.isServing() {
				return false
			}
		}
		return true
	})
	return e
}

// TestEnsembleOperations drives every operation through real clients on a
// 3-server ensemble of the reference Service.
func TestEnsembleOperations(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-server ensemble")
	}
	e := startEnsemble(t, 3, aufgabe5.New)
	a := zkClient(t, 3*time.Second, e.addrs[0])
	b := zkClient(t, 3*time.Second, e.addrs[1])
	must := func(err error, what string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	_, err := a.Create("/app", []byte("v0"), 0, acl)
	must(err, "create /app")
	if _, err := a.Create("/app", nil, 0, acl); err != zk.ErrNodeExists {
		t.Fatalf("second create: %v, want ErrNodeExists", err)
	}
	st, err := a.Set("/app", []byte("v1"), 0)
	must(err, "set /app")
	if st.Version != 1 {
		t.Errorf("version after set: %d", st.Version)
	}
	if _, err := a.Set("/app", nil, 0); err != zk.ErrBadVersion {
		t.Errorf("set with an old version: %v", err)
	}
	// Watches on another server: b watches, a writes.
	_, err = b.Sync("/app")
	must(err, "sync")
	data, _, ch, err := b.GetW("/app")
	must(err, "getw")
	if string(data) != "v1" {
		t.Errorf("b reads %q after sync, want v1", data)
	}
	_, _, cch, err := b.ChildrenW("/app")
	must(err, "childrenw")
	seq, err := a.Create("/app/q-", nil, zk.FlagSequence, acl)
	must(err, "sequential create")
	if seq != "/app/q-0000000000" {
		t.Errorf("sequential name %q", seq)
	}
	expectEvent(t, cch, zk.EventNodeChildrenChanged, "/app")
	_, err = a.Set("/app", []byte("v2"), -1)
	must(err, "set")
	expectEvent(t, ch, zk.EventNodeDataChanged, "/app")
	ephemeralGoesWithSession(t, a, e.addrs[2])
	multiAllOrNothing(t, a, b)
	must(a.Delete("/m1", -1), "delete")
	if err := a.Delete("/app", -1); err != zk.ErrNotEmpty {
		t.Errorf("delete of a parent: %v, want ErrNotEmpty", err)
	}
}

// multiAllOrNothing: a multi that succeeds applies every op; one that
// fails applies none; b sees the result after a sync.
func multiAllOrNothing(t *testing.T, a, b *zk.Conn) {
	t.Helper()
	if _, err := a.Multi(&zk.CreateRequest{Path: "/m1", Data: []byte("x"), Acl: zk.WorldACL(zk.PermAll)}, &zk.SetDataRequest{Path: "/app", Data: []byte("v3"), Version: -1}); err != nil {
		t.Fatalf("multi: %v", err)
	}
	res, err := a.Multi(&zk.CreateRequest{Path: "/m2", Acl: zk.WorldACL(zk.PermAll)}, &zk.CheckVersionRequest{Path: "/app", Version: 99})
	if err != zk.ErrBadVersion {
		t.Errorf("failed multi: %v %+v, want ErrBadVersion", err, res)
	}
	if ok, _, _ := a.Exists("/m2"); ok {
		t.Error("a failed multi left /m2 behind")
	}
	if _, err := b.Sync("/"); err != nil {
		t.Fatalf("sync: %v", err)
	}
	kids, _, err := b.Children("/")
	if err != nil {
		t.Fatalf("children: %v", err)
	}
	if got := strings.Join(kids, ","); got != "app,m1" && got != "app,m1,zookeeper" {
		t.Errorf("children of / = %v", kids)
	}
}

// ephemeralGoesWithSession: a client on another server creates an
// ephemeral and closes its session; a's exists watch sees it deleted.
func ephemeralGoesWithSession(t *testing.T, a *zk.Conn, addr string) {
	t.Helper()
	c := zkClient(t, 3*time.Second, addr)
	if _, err := c.Create("/app/eph", nil, zk.FlagEphemeral, acl); err != nil {
		t.Fatalf("ephemeral create: %v", err)
	}
	if _, err := a.Sync("/app"); err != nil { // a's server may not have applied the create yet
		t.Fatalf("sync: %v", err)
	}
	ok, _, ech, err := a.ExistsW("/app/eph")
	if err != nil || !ok {
		t.Fatalf("existsw after sync: %v %v", ok, err)
	}
	c.Close()
	expectEvent(t, ech, zk.EventNodeDeleted, "/app/eph")
}

// TestEnsembleReconnectElsewhere moves a session to another server when its
// server stops: same session id, its ephemeral kept, writes go on.
func TestEnsembleReconnectElsewhere(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-server ensemble")
	}
	e := startEnsemble(t, 3, aufgabe5.New)
	c, _, err := zk.Connect(e.addrs, 3*time.Second, zk.WithLogger(nopLog{}), zk.WithHostProvider(&inOrder{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	wait.For(t, "a session", 10*time.Second, func() bool { return c.State() == zk.StateHasSession })
	id := c.SessionID()
	if _, err := c.Create("/mine", []byte("x"), zk.FlagEphemeral, acl); err != nil {
		t.Fatal(err)
	}
	e.srv[0].Stop() // c's server
	wait.For(t, "the client on another server", 20*time.Second, func() bool {
		_, err := c.Create("/after", nil, 0, acl)
		return err == nil || err == zk.ErrNodeExists
	})
	if c.SessionID() != id {
		t.Fatalf("session changed from 0x%x to 0x%x", id, c.SessionID())
	}
	ok, st, err := c.Exists("/mine")
	if err != nil || !ok || st.EphemeralOwner != id {
		t.Fatalf("ephemeral after the move: exists %v, owner 0x%x, %v", ok, st.EphemeralOwner, err)
	}
}

// inOrder is a go-zookeeper HostProvider that tries the servers in the
// order given, so a test knows which server a client starts on.
type inOrder struct {
	mu    sync.Mutex
	addrs []string
	next  int
}

func (h *inOrder) Init(servers []string) error { h.addrs = servers; return nil }
func (h *inOrder) Len() int                    { return len(h.addrs) }
func (h *inOrder) Connected()                  {}
func (h *inOrder) Next() (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	a := h.addrs[h.next%len(h.addrs)]
	h.next++
	return a, h.next%len(h.addrs) == 0
}

func expectEvent(t *testing.T, ch <-chan zk.Event, typ zk.EventType, path string) {
	t.Helper()
	select {
	case ev := <-ch:
		if ev.Type != typ || ev.Path != path {
			t.Fatalf("event %v on %s, want %v on %s", ev.Type, ev.Path, typ, path)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("no %v event on %s", typ, path)
	}
}
