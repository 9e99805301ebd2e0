package server

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/wait"
	mw "zablab/mwzookeeper"
	"zablab/properties"
	"zablab/zab"
)

func TestConfigDefaultsAndErrors(t *testing.T) {
	p, _ := properties.LoadString("tickTime=100\nclientPort=2181\nclientPortAddress=127.0.0.1\n")
	c, err := ConfigFromProperties(p, true)
	if err != nil {
		t.Fatal(err)
	}
	if c.ClientPortAddress != "127.0.0.1" || c.MaxClientCnxns != 60 ||
		c.MinSessionTimeout != 200*time.Millisecond || c.MaxSessionTimeout != 2*time.Second {
		t.Errorf("defaults: got %+v", c)
	}
	for ask, want := range map[int32]int32{1: 200, 1000: 1000, 99999: 2000} {
		if got := c.Negotiate(ask); got != want {
			t.Errorf("Negotiate(%d) = %d, want %d", ask, got, want)
		}
	}
	if u := zab.UnknownKeys(p); len(u) != 0 {
		t.Errorf("clientPort or clientPortAddress taken for unknown keys: %v", u)
	}
	dir := t.TempDir()
	for _, tc := range []struct{ text, want string }{
		{"myid=1\nclientPort=70000\n", `peer.properties:2: key "clientPort"`},
		{"myid=1\n", `key "clientPort"`},
		{"clientPort=1\nminSessionTimeout=500\nmaxSessionTimeout=400\n", `peer.properties:3: key "maxSessionTimeout"`},
		{"clientPort=1\nmaxClientCnxns=-1\n", `peer.properties:2: key "maxClientCnxns"`},
		{"clientPort=1\nclientport=2\n", `peer.properties:2: key "clientport"`},
		// tickTime=0 was named as minSessionTimeout, a key not in the file, without a line.
		{"clientPort=1\ntickTime=0\n", `peer.properties:2: key "tickTime"`},
		// One port for two listeners failed at the second listen, exit 1 ("try again").
		{"clientPort=2181\nadmin.serverPort=2181\n", `peer.properties:2: key "admin.serverPort": port 2181 on 127.0.0.1 is already clientPort's`},
		{"clientPort=1\nadmin.serverPort=9\nmetricsProvider.httpPort=9\n", `peer.properties:3: key "metricsProvider.httpPort"`},
	} {
		file := filepath.Join(dir, "peer.properties")
		os.WriteFile(file, []byte(tc.text), 0o644)
		p, err := properties.LoadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ConfigFromProperties(p, true)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got error %v, want one containing %s", tc.text, err, tc.want)
		}
	}
}

func TestHandshakeNegotiatesTimeout(t *testing.T) {
	s := startServer(t, newFake(), testProps)
	for ask, want := range map[int32]int32{10: 300, 1000: 1000, 60000: 3000} {
		r := dialRaw(t, s.Addr())
		got, id, pw := r.connect(0, make([]byte, 16), ask)
		if got != want || id == 0 || len(pw) != 16 {
			t.Errorf("asked %d ms: got timeout %d, session %d, password %x; want timeout %d and a session", ask, got, id, pw, want)
		}
	}
	c := zkClient(t, 2*time.Second, s.Addr().String())
	if _, err := c.Create("/a", []byte("x"), 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	if data, _, err := c.Get("/a"); err != nil || string(data) != "x" {
		t.Fatalf("Get /a = %q, %v", data, err)
	}
	if p, err := c.Sync("/a"); err != nil || p != "/a" {
		t.Fatalf("Sync(/a) = %q, %v; want the path echoed as ZooKeeper does", p, err)
	}
}

func TestRepliesInRequestOrder(t *testing.T) {
	f := newFake()
	s := startServer(t, f, testProps)
	r := dialRaw(t, s.Addr())
	r.connect(0, make([]byte, 16), 1000)
	f.setHold(true)
	for xid := int32(1); xid <= 5; xid++ {
		r.request(xid, mw.OpGetData, "/", false)
	}
	wait.For(t, "5 held requests", 10*time.Second, func() bool { return f.heldCount() == 5 })
	f.release() // answers 5, 4, 3, 2, 1
	for want := int32(1); want <= 5; want++ {
		if xid, _ := r.reply(); xid != want {
			t.Fatalf("reply %d has xid %d: replies left in the order the Service answered", want, xid)
		}
	}
}

func TestEventPrecedesLaterReply(t *testing.T) {
	f := newFake()
	s := startServer(t, f, testProps)
	r := dialRaw(t, s.Addr())
	_, id, _ := r.connect(0, make([]byte, 16), 1000)
	f.setHold(true)
	r.request(1, mw.OpGetData, "/", false)
	wait.For(t, "a held request", 10*time.Second, func() bool { return f.heldCount() == 1 })
	s.Host().Notify(id, mw.WatchEvent{Type: mw.EventNodeDataChanged, Path: "/", Zxid: 7})
	f.release()
	if xid, _ := r.reply(); xid != -1 {
		t.Fatalf("first frame has xid %d, want the watch event (-1) before the held reply", xid)
	}
	if xid, _ := r.reply(); xid != 1 {
		t.Fatalf("second frame has xid %d, want 1", xid)
	}
}

func TestUnknownOpIsUnimplemented(t *testing.T) {
	s := startServer(t, newFake(), testProps)
	r := dialRaw(t, s.Addr())
	r.connect(0, make([]byte, 16), 1000)
	r.request(1, mw.OpCode(999), "", false)
	if xid, code := r.reply(); xid != 1 || code != int32(mw.CodeOf(mw.ErrUnimplemented)) {
		t.Fatalf("unknown op: reply xid %d code %d, want 1 and %d", xid, code, mw.CodeOf(mw.ErrUnimplemented))
	}
	r.request(2, mw.OpGetData, "/", false)
	if xid, code := r.reply(); xid != 2 || code != 0 {
		t.Fatalf("after the unknown op: reply xid %d code %d, want 2 and 0", xid, code)
	}
}

func TestPingsAndAuth(t *testing.T) {
	f := newFake()
	s := startServer(t, f, testProps)
	r := dialRaw(t, s.Addr())
	r.connect(0, make([]byte, 16), 1000)
	r.request(-2, mw.OpPing, "", false)
	if xid, code := r.reply(); xid != -2 || code != 0 {
		t.Fatalf("ping: reply xid %d code %d", xid, code)
	}
	f.mu.Lock()
	pings := f.pings
	f.mu.Unlock()
	if pings != 1 {
		t.Errorf("the Service saw %d pings, want 1", pings)
	}
	c := zkClient(t, 2*time.Second, s.Addr().String())
	for _, scheme := range []string{"ip", "digest"} {
		if err := c.AddAuth(scheme, []byte("u:p")); err != nil {
			t.Errorf("%s auth: %v", scheme, err)
		}
	}
	for _, scheme := range []string{"world", "x509"} {
		if code, closed := authRaw(t, s.Addr().String(), scheme); code != int32(mw.CodeOf(mw.ErrAuthFailed)) || !closed {
			t.Errorf("%s auth: code %d, closed %v; want %d (AuthFailed) and the connection closed, as ZooKeeper 3.8",
				scheme, code, closed, mw.CodeOf(mw.ErrAuthFailed))
		}
	}
}

// TestBadConnections opens 100 connections that send an oversized length,
// garbage, a half frame or a bad connect request while a real client works
// on its own session: only the bad connections close.
func TestBadConnections(t *testing.T) {
	s := startServer(t, newFake(), testProps+"maxClientCnxns=0\n")
	c := zkClient(t, 2*time.Second, s.Addr().String())
	done := make(chan error, 1)
	go func() {
		for i := range 200 {
			if _, err := c.Create(fmt.Sprintf("/n%d", i), []byte{byte(i)}, 0, zk.WorldACL(zk.PermAll)); err != nil {
				done <- fmt.Errorf("create /n%d: %w", i, err)
				return
			}
		}
		done <- nil
	}()
	bad := [][]byte{
		be32(nil, 64<<20),                     // oversized
		be32(nil, -5),                         // negative length
		append(be32(nil, 100), "half"...),     // half a frame, then EOF
		append(be32(nil, 3), 1, 2, 3),         // a connect request too short
		[]byte("\x00\x00\x00\x08garbage!xxx"), // garbage connect
	}
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nc, err := net.Dial("tcp", s.Addr().String())
			if err != nil {
				t.Error(err)
				return
			}
			defer nc.Close()
			nc.Write(bad[i%len(bad)])
			if i%len(bad) == 2 {
				nc.(*net.TCPConn).CloseWrite()
			}
			nc.SetReadDeadline(time.Now().Add(10 * time.Second))
			if _, err := io.Copy(io.Discard, nc); err != nil {
				t.Errorf("bad connection %d: not closed by the server: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if data, _, err := c.Get(fmt.Sprintf("/n%d", i)); err != nil || len(data) != 1 || data[0] != byte(i) {
			t.Fatalf("/n%d: %v %v", i, data, err)
		}
	}
	wait.For(t, "only the good connection left", 10*time.Second, func() bool { return numConns(s) == 1 })
}

// TestGarbageAfterHandshake: a request whose body is cut short is
// answered MarshallingError and not half-applied, and the connection goes
// on (as ZooKeeper's: TestCutShortRequestsAsZooKeeper); a header cut
// short closes the connection.
func TestGarbageAfterHandshake(t *testing.T) {
	s := startServer(t, newFake(), testProps)
	r := dialRaw(t, s.Addr())
	r.connect(0, make([]byte, 16), 10000)
	r.frame([]byte{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2, '/', 'g'}) // create /g, cut after its path
	if xid, code := r.reply(); xid != 1 || code != int32(mw.CodeOf(mw.ErrMarshallingError)) {
		t.Fatalf("create cut short: reply xid %d code %d, want xid 1 MarshallingError", xid, code)
	}
	r.request(2, mw.OpExists, "/g", false)
	if xid, code := r.reply(); xid != 2 || code != int32(mw.CodeOf(mw.ErrNoNode)) {
		t.Fatalf("exists /g after it: reply xid %d code %d, want xid 2 NoNode", xid, code)
	}
	r.frame([]byte{0, 0, 0, 3, 0, 0}) // a header cut short
	if !r.closed() {
		t.Fatal("a request header cut short did not close the connection")
	}
}

func TestNotServingClosesAndRefuses(t *testing.T) {
	f := newFake()
	s := startServer(t, f, testProps)
	c := zkClient(t, 2*time.Second, s.Addr().String())
	id := c.SessionID()
	s.Host().Serving(false)
	wait.For(t, "the client to lose its connection", 10*time.Second, func() bool { return c.State() != zk.StateHasSession })
	r := dialRaw(t, s.Addr())
	r.frame(append(be32(nil, 0), make([]byte, 40)...))
	if !r.closed() {
		t.Fatal("a new connection was served while not serving")
	}
	s.Host().Serving(true)
	wait.For(t, "the client to reconnect", 10*time.Second, func() bool { return c.State() == zk.StateHasSession })
	if c.SessionID() != id {
		t.Errorf("session changed from %x to %x", id, c.SessionID())
	}
	if _, _, err := c.Get("/"); err != nil {
		t.Fatal(err)
	}
}

func TestExpiredAnswer(t *testing.T) {
	f := newFake()
	s := startServer(t, f, testProps)
	r := dialRaw(t, s.Addr())
	to, id, _ := r.connect(12345, make([]byte, 16), 1000)
	if to != 0 || id != 0 {
		t.Fatalf("unknown session: got timeout %d session %d, want 0 and 0", to, id)
	}
	if !r.closed() {
		t.Fatal("the connection stayed open after the expired answer")
	}
	c := zkClient(t, 2*time.Second, s.Addr().String())
	id = c.SessionID()
	f.expire(id)
	wait.For(t, "the client to learn its session expired", 10*time.Second, func() bool { return expiredOrNew(c, id) })
}

// expiredOrNew: go-zookeeper reports StateExpired only for a moment before
// it makes a new session.
func expiredOrNew(c *zk.Conn, id int64) bool {
	return c.State() == zk.StateExpired || c.SessionID() != id
}

func TestHeartbeatClosesSilentConnection(t *testing.T) {
	s := startServer(t, newFake(), testProps)
	r := dialRaw(t, s.Addr())
	start := time.Now() // before the connect: the server's clock starts when it reads it
	r.connect(0, make([]byte, 16), 300)
	if !r.closed() {
		t.Fatal("a silent connection was not closed")
	}
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Errorf("closed after %s, before its 300 ms timeout", d)
	}
}

func TestSlowReaderIsDisconnected(t *testing.T) {
	f := newFake()
	f.nodes["/big"] = fakeNode{data: make([]byte, 512<<10)}
	s := startServer(t, f, testProps)
	c := zkClient(t, 2*time.Second, s.Addr().String())
	r := dialRaw(t, s.Addr())
	r.connect(0, make([]byte, 16), 3000)
	for xid := int32(1); xid <= 100; xid++ {
		r.request(xid, mw.OpGetData, "/big", false)
	}
	wait.For(t, "the slow reader to be dropped", 20*time.Second, func() bool { return numConns(s) == 1 })
	if _, _, err := c.Get("/big"); err != nil {
		t.Fatalf("the other client: %v", err)
	}
}

func TestCloseSession(t *testing.T) {
	f := newFake()
	s := startServer(t, f, testProps)
	c, _, err := zk.Connect([]string{s.Addr().String()}, 2*time.Second, zk.WithLogger(nopLog{}))
	if err != nil {
		t.Fatal(err)
	}
	wait.For(t, "a session", 10*time.Second, func() bool { return c.State() == zk.StateHasSession })
	c.Close()
	wait.For(t, "the session closed and its connection gone", 10*time.Second, func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.closes == 1 && numConns(s) == 0
	})
}

func TestWatchEventReachesClient(t *testing.T) {
	s := startServer(t, newFake(), testProps)
	a := zkClient(t, 2*time.Second, s.Addr().String())
	b := zkClient(t, 2*time.Second, s.Addr().String())
	a.Create("/w", nil, 0, zk.WorldACL(zk.PermAll))
	_, _, ch, err := a.GetW("/w")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Set("/w", []byte("new"), -1); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-ch:
		if ev.Type != zk.EventNodeDataChanged || ev.Path != "/w" {
			t.Fatalf("event %+v", ev)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no watch event")
	}
}

func TestFourLetterWords(t *testing.T) {
	s := startServer(t, newFake(), testProps+"myid=3\n")
	zkClient(t, 2*time.Second, s.Addr().String())
	for word, wants := range map[string][]string{
		"ruok": {"imok"},
		"srvr": {"Zookeeper version: ", "Mode: standalone", "Node count: 1", "Connections: 1"},
		"stat": {"Clients:", "Mode: standalone"},
		"mntr": {"zk_server_state\tstandalone\n", "zk_znode_count\t1\n", "zk_num_alive_connections\t1\n", "zk_avg_latency\t", "zk_watch_count\t0\n"},
		"conf": {"maxSessionTimeout=3000", "serverId=3", "forceSync=yes", "dataDir="},
		"envi": {"Environment:", "go.version="},
		"cons": {"sid=0x1"},
		"wchs": {"Total watches:0"},
	} {
		got := fourLetter(t, s.Addr(), word)
		for _, w := range wants {
			if !strings.Contains(got, w) {
				t.Errorf("%s: answer lacks %q:\n%s", word, w, got)
			}
		}
	}
	s.Host().Serving(false)
	if got := fourLetter(t, s.Addr(), "mntr"); !strings.Contains(got, "not currently serving") {
		t.Errorf("mntr while not serving: %q", got)
	}
	if got := fourLetter(t, s.Addr(), "ruok"); got != "imok" {
		t.Errorf("ruok while not serving: %q", got)
	}
}

func fourLetter(t *testing.T, addr net.Addr, word string) string {
	t.Helper()
	out, _ := askWord(t, addr.String(), word)
	return out
}

// askWord sends a four-letter word to addr on a connection of its own and
// returns the answer and that connection's local address.
func askWord(t *testing.T, addr, word string) (answer, local string) {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	nc.Write([]byte(word))
	out, err := io.ReadAll(nc)
	if err != nil {
		t.Fatalf("%s: %v", word, err)
	}
	return string(out), nc.LocalAddr().String()
}

func TestMaxClientCnxns(t *testing.T) {
	s := startServer(t, newFake(), testProps+"maxClientCnxns=2\n")
	a, b := dialRaw(t, s.Addr()), dialRaw(t, s.Addr())
	a.connect(0, make([]byte, 16), 1000)
	b.connect(0, make([]byte, 16), 1000)
	c := dialRaw(t, s.Addr())
	if !c.closed() {
		t.Fatal("a third connection from one IP was accepted with maxClientCnxns=2")
	}
}

func TestConnectionLossReplyClosesConnection(t *testing.T) {
	s := startServer(t, newFake(), testProps)
	r := dialRaw(t, s.Addr())
	r.connect(0, make([]byte, 16), 1000)
	r.request(1, mw.OpGetData, "/lost", false)
	if !r.closed() {
		t.Fatal("a ConnectionLoss reply was sent instead of closing the connection")
	}
}

// TestSetWatchesOnReconnect: a change made while a client was away fires its
// watch when it comes back (go-zookeeper re-sends its watches).
func TestSetWatchesOnReconnect(t *testing.T) {
	f := newFake()
	s := startServer(t, f, testProps)
	c := zkClient(t, 2*time.Second, s.Addr().String())
	if _, err := c.Create("/x", []byte("1"), 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	_, _, ch, err := c.GetW("/x")
	if err != nil {
		t.Fatal(err)
	}
	s.Host().Serving(false)
	wait.For(t, "the client to lose its connection", 10*time.Second, func() bool { return c.State() != zk.StateHasSession })
	f.setDirect("/x", []byte("2"))
	s.Host().Serving(true)
	select {
	case ev := <-ch:
		if ev.Type != zk.EventNodeDataChanged || ev.Path != "/x" {
			t.Fatalf("event %+v, want NodeDataChanged on /x", ev)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no event for a change made while the client was away")
	}
}

// TestClientAheadIsRefused: a client that has seen a newer zxid than the
// replica is disconnected without an answer, so it tries another server.
func TestClientAheadIsRefused(t *testing.T) {
	s := startServer(t, newFake(), testProps)
	r := dialRaw(t, s.Addr())
	_, id, pw := r.connect(0, make([]byte, 16), 1000)
	r2 := dialRaw(t, s.Addr())
	r2.sendConnect(id, pw, 1000, 1<<40)
	if !r2.closed() {
		t.Fatal("a client ahead of the replica was not disconnected")
	}
	r3 := dialRaw(t, s.Addr())
	if _, got, _ := r3.connect(id, pw, 1000); got != id {
		t.Fatalf("reconnect with the right zxid: session 0x%x, want 0x%x", got, id)
	}
}

func TestHostClockSkew(t *testing.T) {
	p, _ := properties.LoadString(testProps)
	base := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	s, err := New(p, func() mw.Service { return newFake() }, Options{Listener: nopListener{},
		Now: func() time.Time { return base }, Skew: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Host().Now(); !got.Equal(base.Add(3 * time.Second)) {
		t.Fatalf("Host.Now = %v, want the clock plus the skew, %v", got, base.Add(3*time.Second))
	}
}

// nopListener stands for a listener New never uses.
type nopListener struct{ net.Listener }

// TestStopLeavesNoGoroutine: after Stop, no goroutine of the server is left,
// whatever its connections were doing.
func TestStopLeavesNoGoroutine(t *testing.T) {
	f := newFake()
	p, _ := properties.LoadString(testProps)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(p, func() mw.Service { return f }, Options{Listener: ln, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	zkClient(t, 2*time.Second, s.Addr().String())
	r := dialRaw(t, s.Addr())
	r.connect(0, make([]byte, 16), 1000)
	f.setHold(true)
	r.request(1, mw.OpGetData, "/", false) // a reply still owed at Stop
	dialRaw(t, s.Addr())                   // a connection that never says anything
	wait.For(t, "a held request", 10*time.Second, func() bool { return f.heldCount() == 1 })
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	// A reader that has called readers.Done may still be returning: give
	// the goroutines a moment to end, then name those left.
	deadline := time.Now().Add(2 * time.Second)
	left := serverGoroutines()
	for len(left) != 0 && time.Now().Before(deadline) {
		runtime.Gosched()
		left = serverGoroutines()
	}
	if len(left) != 0 {
		t.Fatalf("%d goroutines of the server left after Stop:\n%s", len(left), strings.Join(left, "\n\n"))
	}
}

// serverGoroutines are the stacks of the goroutines running the server's code.
func serverGoroutines() []string {
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	var left []string
	for _, g := range strings.Split(string(buf[:n]), "\n\n") {
		if strings.Contains(g, "zablab/server.(*conn)") || strings.Contains(g, "zablab/server.(*Server)") {
			left = append(left, g)
		}
	}
	return left
}

// TestBurstOfLargeReadsOnAReadingClient: a client that pipelines 40 reads
// of a 512 KiB node (20 MiB of replies) and reads them is served, in order:
// the reader waits for the queue to shrink instead of dropping the client.
func TestBurstOfLargeReadsOnAReadingClient(t *testing.T) {
	f := newFake()
	f.nodes["/big"] = fakeNode{data: make([]byte, 512<<10)}
	s := startServer(t, f, testProps)
	r := dialRaw(t, s.Addr())
	r.connect(0, make([]byte, 16), 3000)
	for xid := int32(1); xid <= 40; xid++ { // all sent before the first is read
		r.request(xid, mw.OpGetData, "/big", false)
	}
	for want := int32(1); want <= 40; want++ {
		if xid, code := r.reply(); xid != want || code != 0 {
			t.Fatalf("reply %d: xid %d code %d", want, xid, code)
		}
	}
}

// TestEventFollowsTheReadThatSetIt: a Service that calls Notify before the
// reply of the read that left the watch (it replied after releasing its
// lock, and a write slipped in) must not make the event overtake that
// reply: clients drop an event for a watch they have not seen set.
func TestEventFollowsTheReadThatSetIt(t *testing.T) {
	f := newFake()
	s := startServer(t, f, testProps)
	r := dialRaw(t, s.Addr())
	_, id, _ := r.connect(0, make([]byte, 16), 1000)
	f.setHold(true)
	r.request(1, mw.OpGetData, "/", true)
	r.request(2, mw.OpGetData, "/", false)
	wait.For(t, "2 held requests", 10*time.Second, func() bool { return f.heldCount() == 2 })
	s.Host().Notify(id, mw.WatchEvent{Type: mw.EventNodeDataChanged, Path: "/", Zxid: 7})
	f.release()
	for i, want := range []int32{1, -1, 2} {
		if xid, _ := r.reply(); xid != want {
			t.Fatalf("frame %d has xid %d, want %d (the read that set the watch, its event, the later read)", i, xid, want)
		}
	}
}

// A peer run with forceSync=no (no fsync of the log) says so in conf, so
// an operator who missed the warning at start can see it.
func TestConfShowsForceSyncNo(t *testing.T) {
	s := startServer(t, newFake(), testProps+"forceSync=no\n")
	if got := fourLetter(t, s.Addr(), "conf"); !strings.Contains(got, "forceSync=no\n") {
		t.Errorf("conf lacks forceSync=no:\n%s", got)
	}
	if got := s.adminConf()["force_sync"]; got != "no" {
		t.Errorf("the admin API's configuration has force_sync %v, want no", got)
	}
}
