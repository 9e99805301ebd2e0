package core_test

import (
	"encoding/binary"
	"testing"

	"zablab/zab/core"
)

// A history larger than one message (MaxBatchBytes, 8 MiB by default) travels as
// NEWLEADER with the first chunk, then PROPOSE with the rest. A follower
// that stored currentEpoch after the first chunk alone (as it once did) and
// crashed before the rest was on its disk would hold the new epoch with a
// strict prefix of that epoch's initial history: its vote (currentEpoch
// first) would beat a peer of the older epoch that holds entries committed
// there, and as leader it would truncate them away.
func TestChunkedSyncCrashKeepsCommittedEntries(t *testing.T) {
	cl, l, g, vals, has := bigHistory(t)

	// The follower of epoch 1 goes down with every committed entry on disk.
	cl.crash(g)
	// Peer 1 joins the old leader, which starts a new epoch with it; peer 1
	// crashes after NEWLEADER's first chunk reached its disk, before the
	// PROPOSE with the rest did.
	writes := 0
	cl.nodes[1].crashOn = func(n *node, rd *core.Ready) bool {
		if len(rd.Entries) > 0 {
			writes++
		}
		return writes > 1
	}
	cl.start(1)
	cl.until("1 crashed during its sync", 80, func() bool { return cl.nodes[1].c == nil })
	st, _ := cl.nodes[1].store.Stable.Load()
	es, _ := cl.nodes[1].mlog.Entries(0)
	t.Logf("peer 1 on disk: currentEpoch %d, %d of %d entries", st.CurrentEpoch, len(es), len(vals))
	cl.crash(l) // the leader of the new epoch goes too

	// Peers 1 and g come back: a quorum. Every committed value must survive.
	cl.start(1, g)
	cl.until("1 and the old follower settle", 120, cl.settled)
	for i := 0; i < 40 && !has(1, g); i++ {
		cl.tick()
	}
	if !has(1, g) {
		t.Fatalf("committed values %v (delivered on 2 and 3 before the crashes) lost: after the restart peer 1 delivered %v, peer %d delivered %v; peer %d was TRUNCated by leader %d",
			vals, cl.values(1), g, cl.values(g), g, cl.leader())
	}
	cl.agree()
}

// The same without any follower crash: the leader of the new epoch fails
// (here: its link to peer 1 breaks, then it crashes) while the rest of the
// history is on its way. Peer 1 goes LOOKING with a prefix of the history;
// had it taken the new epoch with the first chunk, it would win the
// election against the old follower that holds every committed entry, and
// truncate them.
func TestChunkedSyncLeaderFailsKeepsCommittedEntries(t *testing.T) {
	cl, l, g, vals, has := bigHistory(t)
	cl.crash(g)
	cl.nodes[1].crashOn = func(n *node, rd *core.Ready) bool {
		if len(rd.Entries) > 0 {
			cl.cut[[2]uint64{l, 1}] = true // the rest of the history never arrives
		}
		return false
	}
	cl.start(1)
	cl.until("1 took NEWLEADER's first chunk", 80, func() bool { return cl.cut[[2]uint64{l, 1}] })
	cl.crash(l)
	cl.start(g)
	cl.until("1 and the old follower settle", 200, cl.settled)
	for i := 0; i < 40 && !has(1, g); i++ {
		cl.tick()
	}
	if !has(1, g) {
		t.Fatalf("committed values %v lost: peer 1 delivered %v, peer %d delivered %v under leader %d",
			vals, cl.values(1), g, cl.values(g), cl.leader())
	}
	cl.agree()
}

// bigHistory starts peers 2 and 3 of three and commits five values of 3
// MiB each: a history that takes two NEWLEADER-sized parts. It returns the
// leader l, the other peer g, the values and has (whether peers delivered
// them all).
func bigHistory(t *testing.T) (cl *cluster, l, g uint64, vals []uint64, has func(ids ...uint64) bool) {
	t.Helper()
	cl = newCluster(t, 3, 0)
	cl.start(2, 3)
	cl.until("2 and 3 settle", 60, cl.settled)
	l = cl.leader()
	g = uint64(5) - l // the other of 2 and 3
	big := make([]byte, 3<<20)
	for i := 0; i < 5; i++ {
		cl.nextVal++
		data := append(binary.BigEndian.AppendUint64(nil, cl.nextVal), big...)
		if _, err := cl.nodes[l].c.Propose(data, cl.now); err != nil {
			t.Fatal(err)
		}
		cl.process(cl.nodes[l])
		cl.deliver()
		vals = append(vals, cl.nextVal)
	}
	has = func(ids ...uint64) bool {
		for _, id := range ids {
			if len(cl.nodes[id].app) != len(vals) {
				return false
			}
		}
		return true
	}
	cl.until("all 5 values committed and delivered on 2 and 3", 20, func() bool { return has(2, 3) })
	return cl, l, g, vals, has
}
