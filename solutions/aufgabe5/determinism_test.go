package aufgabe5

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// seed returns the seed of a randomized test: AUFGABE5_SEED if set (to
// replay a failure), a fresh one otherwise. It is logged on failure.
func seed(t *testing.T) uint64 {
	t.Helper()
	v := uint64(time.Now().UnixNano())
	if s := os.Getenv("AUFGABE5_SEED"); s != "" {
		var err error
		if v, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("AUFGABE5_SEED=%q: %v", s, err)
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("seed %d: replay with AUFGABE5_SEED=%d", v, v)
		}
	})
	return v
}

// randomACLs are the ACLs the random mix sets: open, alice's alone, and
// readable by anyone but changed only by alice.
var randomACLs = [][]mwzookeeper.ACL{mwzookeeper.OpenACL, {{Perms: mwzookeeper.PermAll, ID: alice}},
	{{Perms: mwzookeeper.PermRead, ID: mwzookeeper.Anyone}, {Perms: mwzookeeper.PermAll, ID: alice}}}

// randomWrite is one write of the random mix: creates of every mode
// (containers and TTL nodes too), setData and delete with right and wrong
// versions, checks, multis and setACL, on a few paths, so that many of
// them conflict; half are sent as alice, so ACLs refuse some.
func randomWrite(r *rand.Rand, s int64) *req {
	w := randomOp(r, s)
	if r.IntN(2) == 0 {
		w.Auth = []mwzookeeper.ID{alice}
	}
	return w
}

func randomOp(r *rand.Rand, s int64) *req {
	path := fmt.Sprintf("/d/p%d", r.IntN(40))
	data := []byte(strconv.Itoa(r.IntN(1000)))
	version := int32(r.IntN(3)) - 1
	switch k := r.IntN(12); {
	case k == 10:
		return &req{Op: mwzookeeper.OpSetACL, Session: s, Path: path, Version: version, ACL: randomACLs[r.IntN(len(randomACLs))]}
	case k == 11 && r.IntN(2) == 0:
		return &req{Op: mwzookeeper.OpCreateContainer, Session: s, Path: path, Data: data, ACL: randomACLs[r.IntN(len(randomACLs))]}
	case k == 11:
		return &req{Op: mwzookeeper.OpCreateTTL, Session: s, Path: path, Data: data, Mode: mwzookeeper.PersistentTTL, TTL: int64(1 + r.IntN(200))}
	case k < 3:
		return &req{Op: mwzookeeper.OpCreate, Session: s, Path: path, Data: data, Mode: mwzookeeper.CreateMode(r.IntN(4))}
	case k < 6:
		return &req{Op: mwzookeeper.OpSetData, Session: s, Path: path, Data: data, Version: version}
	case k < 8:
		return &req{Op: mwzookeeper.OpDelete, Session: s, Path: path, Version: version}
	case k < 9:
		return &req{Op: mwzookeeper.OpCreate, Session: s, Path: "/d/seq-", Data: data, Mode: mwzookeeper.PersistentSequential}
	default:
		return &req{Op: mwzookeeper.OpMulti, Session: s, Ops: []mwzookeeper.Op{
			{Op: mwzookeeper.OpCheck, Path: path, Version: version},
			{Op: mwzookeeper.OpCreate, Path: path + "/m", Mode: mwzookeeper.CreateMode(r.IntN(2))},
			{Op: mwzookeeper.OpSetData, Path: "/d", Data: data, Version: -1},
		}}
	}
}

// pipeline submits n writes of session s on replica i with up to window
// in flight, and returns how many succeeded.
func pipeline(t *testing.T, e *svctest.Ensemble, i int, s int64, n, window int, r *rand.Rand) int {
	inflight := make(chan (<-chan *resp), window)
	ok := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ch := range inflight {
			select {
			case rp := <-ch:
				if rp.Err == nil {
					ok++
				}
			case <-time.After(20 * time.Second):
				t.Errorf("replica %d session %#x: a write got no reply", i, s)
				return
			}
		}
	}()
	for k := 0; k < n; k++ {
		inflight <- e.DoAsync(i, randomWrite(r, s))
	}
	close(inflight)
	<-done
	return ok
}

// TestDeterminism sends a random mix of 10,000 writes from six sessions on
// three replicas, pipelined, then closes half the sessions, and compares
// the replicas' snapshots byte for byte.
func TestDeterminism(t *testing.T) {
	sd := seed(t)
	// 100 ms ticks: a leader change under load costs the test nothing
	// but makes most writes fail with ConnectionLoss.
	e := start(t, 3, svctest.Options{TickTime: 100 * time.Millisecond,
		Extra: "zookeeper.extendedTypesEnabled=true\nznode.container.checkIntervalMs=100"})
	s0 := e.Session(t, 1, time.Minute)
	mustOK(t, "create /d", create(e, t, 1, s0, "/d", "", mwzookeeper.Persistent))
	const writes, perReplica = 10000, 2
	var wg sync.WaitGroup
	var sessions []int64
	var mu sync.Mutex
	okTotal := 0
	for i := 1; i <= 3; i++ {
		for j := 0; j < perReplica; j++ {
			s := e.Session(t, i, time.Minute)
			sessions = append(sessions, s)
			r := rand.New(rand.NewPCG(sd, uint64(i*10+j)))
			wg.Add(1)
			go func() {
				defer wg.Done()
				n := pipeline(t, e, i, s, writes/(3*perReplica), 64, r)
				mu.Lock()
				okTotal += n
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	for k, s := range sessions {
		if k%2 == 0 {
			mustOK(t, "close", e.Do(t, 1+k/perReplica, &req{Op: mwzookeeper.OpCloseSession, Session: s}))
		}
	}
	waitSame(t, e)
	st := e.Service(1).(mwzookeeper.Reporter).Stats()
	t.Logf("seed %d: %d of %d writes succeeded; %d nodes, %d ephemerals, zxid %#x", sd, okTotal, writes, st.Nodes, st.Ephemerals, st.Zxid)
	if okTotal < writes/50 {
		t.Fatalf("only %d writes succeeded: the mix tests nothing", okTotal)
	}
}
