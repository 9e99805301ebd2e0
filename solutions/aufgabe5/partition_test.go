package aufgabe5

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/histview"
	"zablab/internal/lincheck"
	"zablab/internal/wait"
)

// Network partitions as faults: three mwzk-server processes in network
// namespaces of their own (partition_ensemble_test.go), sessions of real
// clients writing and reading (partition_client_test.go) while the test
// cuts the network between the peers, then heals it. Afterwards every
// acknowledged unique create must be on every peer, and the history of the
// keys must be linearizable under lincheck.Model. The tests need root;
// they skip otherwise. MWZK_SEED replays a run's random choices.

// partOpsPerLeg is the answers the tests wait for before the fault, under
// it and after the heal.
const partOpsPerLeg = 60

// partRun is one partition test's ensemble, clients and record.
type partRun struct {
	e      *partEnsemble
	seed   int64
	leader int
	h      *lincheck.History
	acks   *partAcks
	load   *partLoad
	from   int64 // history time when the cut began
	cutAt  int64 // history time when the cut was in place
	faults []histview.Fault
}

// partBegin starts the ensemble and the clients; homes gives each client
// its addresses (the first is its home), knowing the leader.
func partBegin(t *testing.T, homes func(e *partEnsemble, leader int) [][]string) *partRun {
	if testing.Short() {
		t.Skip("an ensemble of processes with a partition: not in -short")
	}
	seed := linSeed(t)
	t.Logf("seed %d (MWZK_SEED replays it)", seed)
	e := partStart(t, 3)
	r := &partRun{e: e, seed: seed, leader: e.waitRoles(t, "a leader", 0), acks: &partAcks{}}
	setup := e.connect(t, e.addrs(e.all()...))
	for _, p := range []string{"/lin", "/pl", "/probe"} {
		if _, err := setup.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatalf("create %s: %v", p, err)
		}
	}
	setup.Close()
	r.h = lincheck.NewHistory()
	r.load = partStartLoad(t, e, r.h, r.acks, seed, homes(e, r.leader))
	r.load.waitAnswers(t, "answers before the partition", partOpsPerLeg)
	return r
}

// roaming gives each of n clients every peer, starting at a home that
// goes round the peers of homes.
func roaming(e *partEnsemble, n int, homes []int) [][]string {
	out := make([][]string, n)
	for i := range out {
		home := homes[i%len(homes)]
		out[i] = e.addrs(append([]int{home}, slices.DeleteFunc(e.all(), func(j int) bool { return j == home })...)...)
	}
	return out
}

// cut applies the fault and returns the time from it to the first write
// acknowledged through a client of peer via (sent after the cut).
func (r *partRun) cut(t *testing.T, what string, via int, fault func() error) time.Duration {
	t.Helper()
	probe := r.e.connect(t, r.e.addrs(via))
	r.from = r.h.Now()
	begin := time.Now()
	if err := fault(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	r.cutAt = r.h.Now()
	t.Logf("%s; cuts (from->to) %v", what, r.e.net.Cuts())
	deadline := begin.Add(60 * time.Second)
	for k := 0; k < 100_000 && time.Now().Before(deadline); k++ {
		if _, err := probe.Create(fmt.Sprintf("/probe/%d", k), nil, 0, zk.WorldACL(zk.PermAll)); err == nil {
			d := time.Since(begin)
			t.Logf("failover under partition: %v (first write acknowledged through peer %d)", d.Round(time.Millisecond), via)
			return d
		}
	}
	t.Fatalf("%s: no write acknowledged through peer %d within 60 s", what, via)
	return 0
}

// heal ends the partition, waits for the whole ensemble and more answers,
// and stops the clients.
func (r *partRun) heal(t *testing.T, replica int, details string) {
	t.Helper()
	r.load.waitAnswers(t, "answers under the partition", partOpsPerLeg)
	if err := r.e.net.Heal(); err != nil {
		t.Fatal(err)
	}
	r.faults = append(r.faults, histview.Fault{Replica: replica, Kind: histview.Other, Start: r.from, End: r.h.Now(), Details: details})
	leader := r.e.waitRoles(t, "a leader and its followers after the heal", 0)
	t.Logf("healed; peer %d leads", leader)
	r.load.waitAnswers(t, "answers after the heal", partOpsPerLeg)
	r.load.end()
}

// check reads every key with sync+getData on every peer (recorded, so the
// outcome of writes that lost their answer shows), checks that every
// acknowledged unique create is on every peer, and runs porcupine.
func (r *partRun) check(t *testing.T) {
	t.Helper()
	acked, missing := r.acks.list(), 0
	for _, i := range r.e.all() {
		conn := r.e.connect(t, r.e.addrs(i))
		c := &partClient{id: 100 + i, conn: conn, h: r.h, answered: &r.load.answered, version: map[string]int32{}}
		for _, key := range lincheck.Keys {
			before := r.load.answered.Load()
			if c.get(key); r.load.answered.Load() == before {
				t.Errorf("peer %d: the final sync+getData of %s failed", i, key)
			}
		}
		if _, err := conn.Sync("/pl"); err != nil {
			t.Fatalf("peer %d: sync /pl: %v", i, err)
		}
		kids, _, err := conn.Children("/pl")
		if err != nil {
			t.Fatalf("peer %d: children of /pl: %v", i, err)
		}
		have := map[string]bool{}
		for _, k := range kids {
			have["/pl/"+k] = true
		}
		for _, a := range acked {
			if !have[a.name] {
				missing++
				t.Errorf("peer %d lacks %s, whose create was acknowledged to client %d (of %d acknowledged)", i, a.name, a.client, len(acked))
			}
		}
		conn.Close()
	}
	t.Logf("%d acknowledged unique creates, %d missing on some peer", len(acked), missing)
	linCheck(t, r.seed, r.h.Closed(), r.faults)
}

// TestPartitionLeaderIsolated cuts the leader off from both followers.
// The followers elect a new leader and writes go on; after the heal
// nothing acknowledged is lost and the history is linearizable.
func TestPartitionLeaderIsolated(t *testing.T) {
	r := partBegin(t, func(e *partEnsemble, _ int) [][]string { return roaming(e, 6, e.all()) })
	old := r.leader
	others := r.e.others(old)
	r.cut(t, fmt.Sprintf("peer %d (the leader) isolated from peers %v", old, others), others[0],
		func() error { return r.e.net.Isolate(old) })
	wait.For(t, "a new leader among the followers", 30*time.Second, func() bool { return r.e.leaderAmong(others, old) != 0 })
	t.Logf("peer %d leads the majority", r.e.leaderAmong(others, old))
	r.heal(t, old, "isolated from the other peers (clients still reach it)")
	r.check(t)
}

// TestPartitionOneWayLeaderToFollower drops the leader's packets to one
// follower only; the follower's packets still reach the leader. The
// follower stops following; the leader and the other follower go on.
func TestPartitionOneWayLeaderToFollower(t *testing.T) {
	r := partBegin(t, func(e *partEnsemble, _ int) [][]string { return roaming(e, 6, e.all()) })
	leader := r.leader
	others := r.e.others(leader)
	cutOff, other := others[0], others[1]
	r.cut(t, fmt.Sprintf("packets of peer %d (the leader) to peer %d dropped", leader, cutOff), other,
		func() error { return r.e.net.Cut(leader, cutOff) })
	wait.For(t, fmt.Sprintf("peer %d to stop following", cutOff), 30*time.Second, func() bool { return r.e.state(cutOff) != "follower" })
	if got := r.e.leaderAmong([]int{leader, other}, 0); got != leader {
		t.Errorf("the majority's leader is %d, want %d still", got, leader)
	}
	r.heal(t, cutOff, fmt.Sprintf("receives nothing from peer %d", leader))
	r.check(t)
}

// TestPartitionMinorityKeepsClients isolates the leader while two clients
// stay connected to it and to it only. It must stop leading, and none of
// its clients' writes may be acknowledged unless committed: after the
// heal every acknowledged write is there and the history is linearizable.
func TestPartitionMinorityKeepsClients(t *testing.T) {
	r := partBegin(t, func(e *partEnsemble, leader int) [][]string {
		homes := roaming(e, 4, e.others(leader))
		return append(homes, e.addrs(leader), e.addrs(leader)) // clients 4 and 5: pinned
	})
	old := r.leader
	others := r.e.others(old)
	r.cut(t, fmt.Sprintf("peer %d (the leader) isolated with its clients", old), others[0],
		func() error { return r.e.net.Isolate(old) })
	wait.For(t, fmt.Sprintf("peer %d to stop leading", old), 30*time.Second, func() bool { return r.e.state(old) != "leader" })
	wait.For(t, "a new leader among the majority", 30*time.Second, func() bool { return r.e.leaderAmong(others, old) != 0 })
	r.load.waitAnswers(t, "answers of the majority's clients", partOpsPerLeg)
	healAt := r.h.Now()
	r.heal(t, old, "isolated from the other peers, two clients connected to it alone")
	r.check(t) // an acknowledged create of the minority's clients that was not committed fails here
	during := 0
	for _, a := range r.acks.list() {
		if a.client >= 4 && a.at > r.cutAt && a.at < healAt {
			during++
		}
	}
	t.Logf("the minority's clients: %d unique creates acknowledged between the cut and the heal (each found on every peer)", during)
}
