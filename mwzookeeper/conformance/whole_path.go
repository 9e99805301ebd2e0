package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/client"
	"zablab/internal/ports"
	"zablab/internal/svctest"
	"zablab/mwzookeeper"
	"zablab/properties"
	"zablab/server"
	"zablab/zab"
)

// The whole path: the Service behind the real server (package server), as
// mwzk-server runs it, and the course's client (package client) talking
// ZooKeeper's wire protocol to it. Every client call runs with a deadline.

// servers are n replicas, each behind its own server and client port.
type servers struct {
	c     *T
	srvs  []*server.Server      // index myid; nil once stopped
	svcs  []mwzookeeper.Service // index myid: the Service behind each server
	addrs []string              // index myid: client ports
	peers []string              // index myid: Zab peer addresses ("" for a lone replica)
}

// startServers writes a properties file per replica (as make run does,
// with clientPort) and starts a server for each.
func (c *T) startServers(n int) *servers {
	c.Helper()
	if why := c.gates.startFailed(n); why != "" {
		c.Fatalf("%s %s: not run, because %s", c.part.ID, c.test.name, why)
	}
	free, err := ports.Free(2 * n)
	if err != nil {
		c.fatalf("whole path: %v", err)
	}
	x := &servers{c: c, srvs: make([]*server.Server, n+1), svcs: make([]mwzookeeper.Service, n+1), addrs: make([]string, n+1), peers: make([]string, n+1)}
	dir := svctest.DataDir(c) // removed after stopAll (cleanups run last first)
	c.Cleanup(x.stopAll)
	for i := 1; i <= n; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "myid=%d\n", i)
		for j := 1; n > 1 && j <= n; j++ {
			fmt.Fprintf(&b, "peer%d=127.0.0.1:%d\n", j, free[j-1])
		}
		fmt.Fprintf(&b, "dataLogDir=log\ndataSnapDir=snap\ntickTime=%d\ninitLimit=10\nsyncLimit=5\nclientPort=%d\nlog.level=%s\n",
			testTick.Milliseconds(), free[n+i-1], logLevel())
		rd := filepath.Join(dir, fmt.Sprintf("peer%d", i))
		file := filepath.Join(rd, "peer.properties")
		if err := os.MkdirAll(rd, 0o755); err != nil {
			c.fatalf("whole path: %v", err)
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			c.fatalf("whole path: %v", err)
		}
		p, err := properties.LoadFile(file)
		if err != nil {
			c.fatalf("whole path: %v", err)
		}
		log := logrus.New()
		if lv, err := logrus.ParseLevel(logLevel()); err == nil {
			log.SetLevel(lv)
		}
		srv, err := server.New(p, func() mwzookeeper.Service { x.svcs[i] = c.f(); return x.svcs[i] }, server.Options{Logger: log.WithField("peer", i)})
		if err != nil {
			c.fatalf("whole path: server.New(%s): %v", file, err)
		}
		if err := within(stopTimeout, srv.Start); err != nil {
			c.fatalf("whole path: start the server of replica %d (%s), which starts its Service: %v", i, file, err)
		}
		x.srvs[i], x.addrs[i] = srv, fmt.Sprintf("127.0.0.1:%d", free[n+i-1])
		if n > 1 {
			x.peers[i] = fmt.Sprintf("127.0.0.1:%d", free[i-1])
		}
	}
	return x
}

// logLevel is the peers' log level: ZABLAB_LOG, else WARN.
func logLevel() string {
	if lv := os.Getenv("ZABLAB_LOG"); lv != "" {
		return strings.ToUpper(lv)
	}
	return "WARN"
}

// within runs f with a deadline.
func within(d time.Duration, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		return fmt.Errorf("no answer within %s", d)
	}
}

// connect opens a client session on replica i's server.
func (x *servers) connect(i int, timeout time.Duration) *client.MWZooKeeper {
	x.c.Helper()
	log := logrus.New()
	log.SetLevel(logrus.ErrorLevel)
	z, err := client.Connect([]string{x.addrs[i]}, timeout, client.WithConnectTimeout(startEnsemble), client.WithLogger(log))
	if err != nil {
		x.c.failf(fmt.Sprintf("client.Connect to the server of replica %d (%s)", i, x.addrs[i]), "a session", fmt.Sprintf("error %q", err.Error()))
	}
	x.c.Cleanup(func() { _ = within(stopTimeout, z.Close) })
	return z
}

// leads says whether replica i's Zab peer leads: the Zab library says so,
// not the Service under test (svctest.Ensemble.Leader says why).
func (x *servers) leads(i int) bool {
	x.c.Helper()
	if x.srvs[i] == nil {
		return false
	}
	var f zab.Figures
	// A running replica's peer is listed at the address its properties
	// give it; one started under another spelling would hide its role
	// (variant address-lie; svctest checks the same of its ensembles).
	if !poll(probeTimeout, func() (ok bool) { f, ok = zab.PeerFiguresAt(x.peers[i]); return ok }) {
		x.c.fatalf("whole path: replica %d runs, but no Zab peer of this process runs at its address %s: a Service starts Zab with the peer addresses of its properties as they are spelled", i, x.peers[i])
	}
	return f.Role == zab.Leading
}

// stop stops replica i's server and Service.
func (x *servers) stop(i int) {
	x.c.Helper()
	srv := x.srvs[i]
	x.srvs[i] = nil
	if err := within(stopTimeout, srv.Stop); err != nil {
		x.c.fatalf("whole path: stop the server of replica %d: %v", i, err)
	}
	if x.peers[i] != "" {
		if err := svctest.PeerLeft(x.peers[i], stopTimeout); err != nil {
			x.c.fatalf("whole path: stop the server of replica %d: %v (Service.Stop must leave the ensemble)", i, err)
		}
	}
}

func (x *servers) stopAll() {
	for i := len(x.srvs) - 1; i >= 1; i-- {
		if srv := x.srvs[i]; srv != nil {
			x.srvs[i] = nil
			if err := within(stopTimeout, srv.Stop); err != nil {
				x.c.Errorf("%s: stop the server of replica %d: %v", x.c.part.ID, i, err)
			}
		}
	}
}

// call runs one client call with a deadline and fails the test on an error
// other than want (nil: success).
func (c *T) call(op string, want error, f func() error) {
	c.Helper()
	err := within(replyTimeout, f)
	if !sameCode(err, want) {
		exp := "success"
		if want != nil {
			exp = "error " + codeText(want)
		}
		got := "success"
		if err != nil {
			got = fmt.Sprintf("error %q", err.Error())
		}
		c.failf("client "+op, exp, got)
	}
}

func testThroughServer(c *T) {
	x := c.startServers(1)
	z := x.connect(1, 5*time.Second)
	var name string
	c.call(`Create("/srv", "x")`, nil, func() (err error) { name, err = z.Create("/srv", []byte("x"), false); return })
	if name != "/srv" {
		c.failf(`client Create("/srv", "x")`, `the created name "/srv"`, fmt.Sprintf("%q", name))
	}
	c.call(`Create("/srv", "x") again`, wantNodeExists, func() error { _, err := z.Create("/srv", nil, false); return err })
	c.call(`Create("/srv/a", "")`, nil, func() error { _, err := z.Create("/srv/a", nil, false); return err })
	var st mwzookeeper.MWStat
	var data []byte
	c.call(`GetData("/srv")`, nil, func() (err error) { data, err = z.GetData("/srv", &st); return })
	if string(data) != "x" || st.NumChildren != 1 || st.Czxid == 0 || st.Version != 0 {
		c.failf(`client GetData("/srv")`, "data \"x\", one child, version 0 and a czxid", fmt.Sprintf("data %q with stat %s", data, statText(st)))
	}
	c.call(`SetData("/srv", "y", 0)`, nil, func() (err error) { st, err = z.SetData("/srv", []byte("y"), 0); return })
	if st.Version != 1 {
		c.failf(`client SetData("/srv", "y", 0)`, "a stat with version 1", "stat "+statText(st))
	}
	c.call(`SetData("/srv", "z", 0)`, wantBadVersion, func() error { _, err := z.SetData("/srv", nil, 0); return err })
	var kids []string
	c.call(`GetChildren("/srv")`, nil, func() (err error) { kids, err = z.GetChildren("/srv"); return })
	if len(kids) != 1 || kids[0] != "a" {
		c.failf(`client GetChildren("/srv")`, `children ["a"]`, fmt.Sprintf("children %q", kids))
	}
	c.call(`Delete("/srv", -1)`, wantNotEmpty, func() error { return z.Delete("/srv", -1) })
	c.call(`Delete("/srv/a", -1)`, nil, func() error { return z.Delete("/srv/a", -1) })
	c.call(`Delete("/srv", 1)`, nil, func() error { return z.Delete("/srv", 1) })
	var ok bool
	c.call(`Exists("/srv")`, nil, func() (err error) { ok, _, err = z.Exists("/srv"); return })
	if ok {
		c.failf(`client Exists("/srv") after Delete`, "false", "true")
	}
}

// readOrLost is call for a read that expects success, but says false on
// ConnectionLoss for the caller to try again: a server closes its clients'
// connections while its replica looks for a new leader, as ZooKeeper's
// do, and the client reconnects to the same session.
func (c *T) readOrLost(op string, f func() error) bool {
	c.Helper()
	lost := false
	c.call(op, nil, func() error {
		err := f()
		lost = sameCode(err, wantConnectionLoss)
		if lost {
			return nil
		}
		return err
	})
	return !lost // call ended the test if f gave no answer in time
}

// gone waits until z, after a Sync, no longer sees path.
func (c *T) gone(z *client.MWZooKeeper, path, why string, d time.Duration) {
	c.Helper()
	still, answered := true, false
	poll(d, func() bool {
		answered = c.readOrLost(`Sync("/")`, func() error { return z.Sync("/") }) &&
			c.readOrLost(fmt.Sprintf("Exists(%q)", path), func() (err error) { still, _, err = z.Exists(path); return })
		return answered && !still
	})
	switch {
	case !answered:
		c.failf(fmt.Sprintf("client Sync(\"/\") and Exists(%q) on another server, %s", path, why),
			fmt.Sprintf("answers within %s", d), "error ConnectionLoss to the last try")
	case still:
		c.failf(fmt.Sprintf("client Exists(%q) on another server, %s", path, why), fmt.Sprintf("false within %s", d), "true")
	}
}

func testThroughServerEphemeral(c *T) {
	x := c.startServers(3)
	watcher := x.connect(3, 5*time.Second) // a session: a leader was elected
	// The sessions' server stops later: a follower's, as in
	// GoneWhenServerStops, where the Service says which replica leads.
	h := 2
	if x.leads(2) {
		h = 1
	}
	a := x.connect(h, 2*time.Second)
	c.call(`Create("/srv-eph", ephemeral)`, nil, func() error { _, err := a.Create("/srv-eph", nil, true); return err })
	var ok bool
	c.call(`Sync("/")`, nil, func() error { return watcher.Sync("/") })
	c.call(`Exists("/srv-eph")`, nil, func() (err error) { ok, _, err = watcher.Exists("/srv-eph"); return })
	if !ok {
		c.failf(`client Exists("/srv-eph") on the server of replica 3 after Sync`, "true", "false")
	}
	c.call("Close", nil, a.Close)
	c.gone(watcher, "/srv-eph", fmt.Sprintf("after its session was closed on the server of replica %d", h), 5*time.Second)
	b := x.connect(h, 2*time.Second)
	c.call(`Create("/srv-eph2", ephemeral)`, nil, func() error { _, err := b.Create("/srv-eph2", nil, true); return err })
	until := time.Now().Add(time.Second) // from before the stop, which may stall: the session was pinged until now
	x.stop(h)
	c.notYetGone(watcher, "/srv-eph2", until, fmt.Sprintf("right after the server of replica %d, which held the session (timeout 2 s, pinged until then), stopped", h))
	c.gone(watcher, "/srv-eph2", fmt.Sprintf("after the server of replica %d, which held the session (timeout 2 s), stopped", h), 15*time.Second)
}

// notYetGone checks, on z after a Sync, that path still exists, if the
// answer comes before until: a session ends by its timeout, not because
// its server stopped (a crash gives the server no say), so its ephemeral
// cannot go earlier. An answer after until proves nothing: the machine
// may have stalled.
func (c *T) notYetGone(z *client.MWZooKeeper, path string, until time.Time, why string) {
	c.Helper()
	still := true
	for time.Now().Before(until) {
		if c.readOrLost(`Sync("/")`, func() error { return z.Sync("/") }) &&
			c.readOrLost(fmt.Sprintf("Exists(%q)", path), func() (err error) { still, _, err = z.Exists(path); return }) {
			break
		}
	}
	if !still && time.Now().Before(until) {
		c.failf(fmt.Sprintf("client Exists(%q) on another server, %s", path, why),
			"true: the session's timeout has not passed (a replica's stop, like its crash, ends no session before it)", "false")
	}
}
