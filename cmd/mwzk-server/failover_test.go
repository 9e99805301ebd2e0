package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/wait"
)

// TestEnsembleFailover is the acceptance test of issue 9: three mwzk-server
// processes, real clients driving every operation, then kill -9 of the
// leader while 8 clients write. Every acknowledged write is readable on both
// survivors; clients reconnect by themselves; a session of the killed peer
// survives when its client can reach another server in time, and expires,
// ephemeral and all, when it cannot.
func TestEnsembleFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 3 server processes")
	}
	needSolution(t)
	peers := writePeers(t, t.TempDir(), 3)
	for _, p := range peers {
		p.start(t)
	}
	leader := findLeader(t, peers)
	all := []string{peers[0].client, peers[1].client, peers[2].client}
	var others []*peer
	for _, p := range peers {
		if p != leader {
			others = append(others, p)
		}
	}
	everyOperation(t, connect(t, all, 4*time.Second, false))

	// Two clients of the leader with ephemerals: one can move, one cannot.
	movable := connect(t, []string{leader.client, others[0].client, others[1].client}, 4*time.Second, true)
	stuck := connect(t, []string{leader.client}, 2*time.Second, false)
	for name, c := range map[string]*zk.Conn{"/movable": movable, "/stuck": stuck} {
		if _, err := c.Create(name, nil, zk.FlagEphemeral, acl); err != nil {
			t.Fatalf("create %s: %v", name, err)
		}
	}
	movableID := movable.SessionID()

	acked, stop := writeLoad(t, all, 8)
	wait.For(t, "200 acknowledged writes", 30*time.Second, func() bool { return acked.count() >= 200 })
	leader.proc.Kill() // SIGKILL, by PID
	before, each := acked.count(), acked.perClient()
	wait.For(t, "200 more acknowledged writes after the kill, and every client writing again", 40*time.Second, func() bool {
		now := acked.perClient()
		for i := range each {
			if now[i] == each[i] {
				return false
			}
		}
		return acked.count() >= before+200
	})
	stop()

	for _, p := range others {
		checkSurvivor(t, p, acked.list(), movableID)
	}
	if movable.SessionID() != movableID {
		t.Errorf("the movable client's session changed from 0x%x to 0x%x", movableID, movable.SessionID())
	}
}

// findLeader waits for one leader and two followers and returns the leader.
func findLeader(t *testing.T, peers []*peer) *peer {
	t.Helper()
	var leader *peer
	wait.For(t, "a leader and two followers", 30*time.Second, func() bool {
		n := 0
		for _, p := range peers {
			switch p.state() {
			case "leader":
				leader = p
				n++
			case "follower":
				n++
			}
		}
		return n == 3 && leader != nil
	})
	return leader
}

// checkSurvivor checks one surviving peer after the kill: every
// acknowledged write is there, the stuck session's ephemeral expires, the
// moved session's ephemeral stays.
func checkSurvivor(t *testing.T, p *peer, acked []string, movableID int64) {
	t.Helper()
	c := connect(t, []string{p.client}, 4*time.Second, false)
	if _, err := c.Sync("/w"); err != nil {
		t.Fatalf("sync on peer %d: %v", p.id, err)
	}
	kids, _, err := c.Children("/w")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, k := range kids {
		have[k] = true
	}
	for _, name := range acked {
		if !have[name] {
			t.Fatalf("peer %d lacks acknowledged write /w/%s (of %d)", p.id, name, len(acked))
		}
	}
	wait.For(t, "the stuck session's ephemeral to expire on peer "+fmt.Sprint(p.id), 30*time.Second, func() bool {
		ok, _, err := c.Exists("/stuck")
		return err == nil && !ok
	})
	ok, st, err := c.Exists("/movable")
	if err != nil || !ok || st.EphemeralOwner != movableID {
		t.Fatalf("peer %d: /movable after the move: %v owner 0x%x, %v", p.id, ok, st.EphemeralOwner, err)
	}
}

// ackSet is the set of writes the ensemble acknowledged.
type ackSet struct {
	mu    sync.Mutex
	names []string
	per   []int // acknowledged writes by client
}

func (a *ackSet) add(client int, n string) {
	a.mu.Lock()
	a.names = append(a.names, n)
	a.per[client]++
	a.mu.Unlock()
}

func (a *ackSet) perClient() []int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]int(nil), a.per...)
}

func (a *ackSet) count() int { a.mu.Lock(); defer a.mu.Unlock(); return len(a.names) }
func (a *ackSet) list() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.names...)
}

// writeLoad starts n clients creating /w/c<i>-<k> until stop is called.
func writeLoad(t *testing.T, addrs []string, n int) (*ackSet, func()) {
	setup := connect(t, addrs, 4*time.Second, false)
	if _, err := setup.Create("/w", nil, 0, acl); err != nil {
		t.Fatal(err)
	}
	acked := &ackSet{per: make([]int, n)}
	var quit atomic.Bool
	var wg sync.WaitGroup
	for i := range n {
		c := connect(t, addrs, 4*time.Second, false)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 100000 && !quit.Load(); k++ {
				name := fmt.Sprintf("c%d-%d", i, k)
				if _, err := c.Create("/w/"+name, []byte(name), 0, acl); err == nil {
					acked.add(i, name)
				}
			}
		}()
	}
	return acked, func() { quit.Store(true); wg.Wait() }
}

// everyOperation drives each operation once through a real client.
func everyOperation(t *testing.T, c *zk.Conn) {
	t.Helper()
	step := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	_, err := c.Create("/ops", []byte("a"), 0, acl)
	step("create", err)
	_, err = c.Set("/ops", []byte("b"), 0)
	step("setData", err)
	data, st, err := c.Get("/ops")
	step("getData", err)
	if string(data) != "b" || st.Version != 1 {
		t.Fatalf("getData: %q version %d", data, st.Version)
	}
	seq, err := c.Create("/ops/s-", nil, zk.FlagSequence|zk.FlagEphemeral, acl)
	step("ephemeral sequential create", err)
	kids, _, err := c.Children("/ops")
	step("getChildren", err)
	if len(kids) != 1 || "/ops/"+kids[0] != seq {
		t.Fatalf("children %v, want [%s]", kids, seq)
	}
	_, err = c.Sync("/ops")
	step("sync", err)
	_, err = c.Multi(&zk.CreateRequest{Path: "/ops/m", Data: nil, Acl: acl}, &zk.CheckVersionRequest{Path: "/ops", Version: 1})
	step("multi", err)
	if _, err := c.Multi(&zk.DeleteRequest{Path: "/ops/m", Version: -1}, &zk.CheckVersionRequest{Path: "/ops", Version: 7}); err != zk.ErrBadVersion {
		t.Fatalf("failing multi: %v, want ErrBadVersion", err)
	}
	ok, _, err := c.Exists("/ops/m")
	step("exists", err)
	if !ok {
		t.Fatal("a failed multi deleted /ops/m")
	}
	step("delete", c.Delete("/ops/m", -1))
	step("delete", c.Delete(seq, -1))
	step("delete", c.Delete("/ops", 1))
}
