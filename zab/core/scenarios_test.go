package core_test

import (
	"errors"
	"slices"
	"testing"

	"zablab/zab/core"
)

// Scenarios where ZooKeeper itself once lost or corrupted data. Each builds
// the situation step by step and checks that every running peer ends with
// the same delivered sequence, which holds every value delivered before.

// persistPrefix persists the first k steps of rd in the contract's order
// (snapshot, truncation, entries, stable state) and reports whether it did
// all of them.
func persistPrefix(n *node, rd *core.Ready, k int) bool {
	steps := []func(){
		func() {
			if rd.Snapshot != nil {
				_ = n.store.Snapshots.Save(*rd.Snapshot)
				_ = n.mlog.TruncateAfter(rd.Snapshot.Meta.Zxid)
				_ = n.mlog.Sync()
			}
		},
		func() {
			if rd.Truncate != nil {
				_ = n.mlog.TruncateAfter(*rd.Truncate)
				_ = n.mlog.Sync()
			}
		},
		func() { _ = n.mlog.Append(rd.Entries); _ = n.mlog.Sync() },
		func() {
			if rd.Stable != nil {
				_ = n.store.Stable.Store(*rd.Stable)
			}
		},
	}
	for i := 0; i < k && i < len(steps); i++ {
		steps[i]()
	}
	return k >= len(steps)
}

func isNewLeaderSync(rd *core.Ready) bool {
	return rd.Stable != nil && slices.ContainsFunc(rd.Messages, func(m core.Message) bool { return m.Type == core.MsgAckLD })
}

// ZOOKEEPER-4643: a follower crashes between persisting its new epoch and
// persisting the history it was synchronized with. Here the history always
// goes first: whichever step the crash cuts, a peer never holds the new
// currentEpoch without the history, so it can never win an election with a
// stale log and truncate committed values elsewhere.
func TestZK4643FollowerCrashBetweenEpochAndHistory(t *testing.T) {
	for k := 0; k < 4; k++ {
		cl := newCluster(t, 3, 0)
		cl.start(1, 2)
		cl.until("1 and 2 settle", 60, cl.settled)
		vals := []uint64{cl.propose(2), cl.propose(2), cl.propose(2)}
		cl.until("values delivered", 10, func() bool { return cl.has(vals...) })
		cl.nodes[3].crashOn = func(n *node, rd *core.Ready) bool {
			return isNewLeaderSync(rd) && !persistPrefix(n, rd, k)
		}
		cl.start(3)
		cl.until("3 crashed during its sync", 40, func() bool { return cl.nodes[3].c == nil })
		st, _ := cl.nodes[3].store.Stable.Load()
		last, _ := cl.nodes[3].mlog.Entries(0)
		if st.CurrentEpoch == cl.nodes[2].c.Status().Epoch && len(last) < len(vals) {
			t.Fatalf("cut after %d steps: peer 3 holds the new epoch %d with only %d of %d entries", k, st.CurrentEpoch, len(last), len(vals))
		}
		cl.crash(2) // the leader goes; 3 comes back and must not win with its partial history
		cl.start(3)
		cl.until("1 and 3 settle", 80, cl.settled)
		cl.until("values delivered on 1 and 3", 20, func() bool { return cl.has(vals...) })
		cl.start(2)
		cl.until("all settle", 80, cl.settled)
		cl.agree()
	}
}

// ZOOKEEPER-4646, -3911, -3023: followers acknowledged NEWLEADER before the
// synchronized entries were on disk, then every peer lost power. Here ACKLD
// leaves only after the Ready that holds the entries is persisted, so a
// power failure right after the leader committed loses nothing.
func TestZK4646PowerFailureAfterNewLeaderAck(t *testing.T) {
	cl := newCluster(t, 3, 0)
	cl.start(2, 3)
	cl.until("2 and 3 settle", 60, cl.settled)
	vals := []uint64{cl.propose(3), cl.propose(2)}
	cl.until("values delivered", 10, func() bool { return cl.has(vals...) })
	cl.crash(3) // 1 must learn the history by DIFF from 2 when it joins
	cl.start(1)
	cl.until("1 and 2 settle", 80, cl.settled)
	for _, id := range []uint64{1, 2} {
		cl.crash(id)
	}
	cl.start()
	cl.until("all settle after the power failure", 80, cl.settled)
	cl.until("values delivered everywhere", 20, func() bool { return cl.has(vals...) })
	cl.agree()
}

// ZOOKEEPER-2355: a DIFF carries a proposal the old leader never committed,
// then the new leader fails too before committing it. Whatever the outcome,
// the peers must agree on it.
func TestZK2355DiffCarriesUncommittedProposalThenLeaderChange(t *testing.T) {
	cl := newCluster(t, 5, 0)
	cl.start()
	cl.until("a leader", 60, cl.settled)
	for _, to := range []uint64{1, 2, 3} {
		cl.cut[[2]uint64{5, to}] = true
	}
	x := cl.propose(5) // reaches only 4: not committed
	cl.deliver()
	cl.crash(5)
	clear(cl.cut)
	// 4 holds x and must win; crash it as soon as it has sent its first
	// NEWLEADER, before a quorum acknowledged.
	sent := false
	cl.nodes[4].crashOn = func(n *node, rd *core.Ready) bool {
		if sent {
			return true
		}
		sent = slices.ContainsFunc(rd.Messages, func(m core.Message) bool { return m.Type == core.MsgNewLeader })
		return false
	}
	cl.until("4 crashed as new leader", 60, func() bool { return cl.nodes[4].c == nil })
	cl.until("1, 2, 3 settle", 100, cl.settled)
	y := cl.propose(cl.leader())
	cl.until("y delivered", 20, func() bool { return cl.has(y) })
	cl.start(4, 5)
	cl.until("all settle", 100, cl.settled)
	cl.until("y everywhere", 20, func() bool { return cl.has(y) })
	cl.agree()
	t.Logf("x (%d) delivered: %v", x, slices.Contains(cl.values(1), x))
}

// ZOOKEEPER-1154: the peer with the highest zxid is down during the election
// and comes back afterwards: its extra, uncommitted entry is truncated.
func TestZK1154HighestZxidDownDuringElectionIsTruncated(t *testing.T) {
	cl := newCluster(t, 3, 0)
	cl.start()
	cl.until("a leader", 60, cl.settled)
	cl.cut[[2]uint64{3, 1}], cl.cut[[2]uint64{3, 2}] = true, true
	x := cl.propose(3) // only the leader has it
	cl.deliver()
	cl.crash(3)
	clear(cl.cut)
	cl.until("1 and 2 settle", 80, cl.settled)
	y := cl.propose(cl.leader())
	cl.until("y delivered", 20, func() bool { return cl.has(y) })
	cl.trace = nil
	cl.start(3)
	cl.until("3 rejoins", 80, cl.settled)
	if !slices.ContainsFunc(cl.trace, func(l string) bool { return l == "2→3 NEWLEADER TRUNC" }) {
		t.Fatalf("peer 3 was not synchronized by TRUNC: %q", cl.trace)
	}
	if slices.Contains(cl.values(3), x) {
		t.Fatalf("uncommitted %d survived on peer 3", x)
	}
	cl.agree()
}

// ZOOKEEPER-4394, -4685: PROPOSE and COMMIT reach a joining follower around
// its NEWLEADER: one before (overtaking it) and one after.
func TestZK4394ProposeAndCommitDuringSynchronization(t *testing.T) {
	cl := newCluster(t, 3, 0)
	cl.start(2, 3)
	cl.until("2 and 3 settle", 60, cl.settled)
	cl.start(1)
	var before, after uint64
	for i := 0; i < 200 && after == 0; i++ {
		j := slices.IndexFunc(cl.queue, func(m core.Message) bool { return m.Type == core.MsgNewLeader && m.To == 1 })
		if j < 0 {
			cl.deliverOne()
			continue
		}
		before = cl.propose(3) // queued after NEWLEADER; move it in front
		k := slices.IndexFunc(cl.queue, func(m core.Message) bool { return m.Type == core.MsgPropose && m.To == 1 })
		if k > j {
			m := cl.queue[k]
			cl.queue = slices.Insert(slices.Delete(cl.queue, k, k+1), j, m)
		}
		cl.deliverOne()
		cl.deliverOne()
		after = cl.propose(3)
	}
	cl.until("both delivered everywhere", 40, func() bool { return cl.has(before, after) })
	cl.agree()
}

// A SNAP cut off halfway (cf. ZOOKEEPER-3642), then a DIFF: the follower
// crashes while installing the snapshot and is synchronized again later.
func TestSnapCutOffHalfwayThenDiff(t *testing.T) {
	for k := 1; k < 4; k++ {
		cl := newCluster(t, 3, 0)
		cl.start(2, 3)
		cl.until("2 and 3 settle", 60, cl.settled)
		var vals []uint64
		for i := 0; i < 5; i++ {
			vals = append(vals, cl.propose(3))
		}
		cl.until("values delivered", 10, func() bool { return cl.has(vals...) })
		cl.snapshot(3)
		cl.snapshot(2)
		vals = append(vals, cl.propose(2))
		cl.until("last value delivered", 10, func() bool { return cl.has(vals...) })
		cl.nodes[1].crashOn = func(n *node, rd *core.Ready) bool {
			return rd.Snapshot != nil && !persistPrefix(n, rd, k)
		}
		cl.trace = nil
		cl.start(1)
		cl.until("1 crashed installing SNAP", 60, func() bool { return cl.nodes[1].c == nil })
		cl.start(1)
		cl.until("1 rejoins", 80, cl.settled)
		cl.until("1 has every value", 20, func() bool { return cl.has(vals...) })
		cl.agree()
	}
}

// A stale peer must never lead with a gappy log: peer 3 (highest id) was
// down while the others committed; it comes back empty and must follow.
func TestStalePeerNeverLeads(t *testing.T) {
	cl := newCluster(t, 3, 0)
	cl.start(1, 2)
	cl.until("1 and 2 settle", 60, cl.settled)
	var vals []uint64
	for i := 0; i < 4; i++ {
		vals = append(vals, cl.propose(1))
	}
	cl.until("values delivered", 10, func() bool { return cl.has(vals...) })
	cl.crash(1)
	cl.crash(2)
	cl.start()
	cl.until("all settle", 80, cl.settled)
	if cl.leader() == 3 {
		t.Fatal("stale peer 3 leads")
	}
	cl.until("values everywhere", 20, func() bool { return cl.has(vals...) })
	cl.agree()
}

// When the zxid counter runs out the leader must start a new epoch.
func TestZxidCounterExhaustionStartsNewEpoch(t *testing.T) {
	cl := newCluster(t, 3, 0)
	cl.maxCtr = 3
	cl.start()
	cl.until("a leader", 60, cl.settled)
	var vals []uint64
	for len(vals) < 10 {
		cl.until("a leader", 80, cl.settled)
		cl.nextVal++
		_, err := cl.nodes[cl.leader()].c.Propose([]byte{0, 0, 0, 0, 0, 0, 0, byte(cl.nextVal)}, cl.now)
		if errors.Is(err, core.ErrNoLeader) {
			continue // this leader stepped down: counter exhausted
		}
		cl.process(cl.nodes[cl.leader()])
		vals = append(vals, cl.nextVal)
		cl.until("value delivered", 20, func() bool { return cl.has(cl.nextVal) })
	}
	epochs := map[uint32]bool{}
	for _, e := range cl.nodes[1].app {
		if e.Zxid.Counter() > 3 {
			t.Fatalf("zxid %s beyond the counter limit 3", e.Zxid)
		}
		epochs[e.Zxid.Epoch()] = true
	}
	if len(epochs) < 4 {
		t.Fatalf("10 values with 3 per epoch need at least 4 epochs, got %d", len(epochs))
	}
	cl.agree()
}

// Two voters need each other; four voters need three.
func TestEvenEnsembles(t *testing.T) {
	for _, tc := range []struct{ voters, down int }{{2, 1}, {4, 2}} {
		cl := newCluster(t, tc.voters, 0)
		up := cl.voters[tc.down:]
		cl.start(up...)
		for i := 0; i < 60; i++ {
			cl.tick()
		}
		if l := cl.leader(); l != 0 {
			t.Fatalf("%d voters, %d down: peer %d leads without a quorum", tc.voters, tc.down, l)
		}
		cl.start(cl.voters[0])
		cl.until("a quorum settles", 80, cl.settled)
		v := cl.propose(cl.leader())
		cl.until("value delivered", 20, func() bool { return cl.has(v) })
		cl.agree()
	}
}
