package core_test

import (
	"slices"
	"strings"
	"testing"

	"zablab/zab/core"
)

// These tests read as protocol traces: each lists, in order, the messages
// one follower and its leader exchange in a phase (votes, pings and acks
// left out).

// between keeps the trace lines between peers a and b.
func between(trace []string, a, b uint64) []string {
	var out []string
	for _, l := range trace {
		f := strings.Fields(l)[0]
		if f == fmtPair(a, b) || f == fmtPair(b, a) {
			out = append(out, l)
		}
	}
	return out
}

func fmtPair(a, b uint64) string { return string(rune('0'+a)) + "→" + string(rune('0'+b)) }

func TestElectionPicksHighestZxidThenHighestID(t *testing.T) {
	cl := newCluster(t, 3, 0)
	cl.start()
	cl.until("a leader", 50, cl.settled)
	if got := cl.leader(); got != 3 {
		t.Fatalf("with equal histories the highest id must lead: got %d, want 3", got)
	}
	// Give peer 1 the longest history: with 3 down, 1 and 2 carry on, and 1
	// must then win against 3, which has a higher id but less history.
	cl.crash(3)
	cl.until("1 and 2 settle without 3", 60, cl.settled)
	v := cl.propose(cl.leader())
	cl.until("the value delivered", 20, func() bool { return cl.has(v) })
	cl.crash(1)
	cl.crash(2)
	cl.start(1, 3)
	cl.until("1 and 3 settle", 60, cl.settled)
	if got := cl.leader(); got != 1 {
		t.Fatalf("peer 1 has the newest epoch and zxid and must lead, got %d", got)
	}
	cl.agree()
}

func TestDiscoveryAndSynchronizationTrace(t *testing.T) {
	cl := newCluster(t, 3, 0)
	cl.start()
	cl.until("a leader", 50, cl.settled)
	want := []string{
		"1→3 CEPOCH",         // follower: my acceptedEpoch
		"3→1 NEWEPOCH",       // leader: the new epoch, above every accepted one
		"1→3 ACKEPOCH",       // follower: promised, with my currentEpoch and last zxid
		"3→1 NEWLEADER DIFF", // leader: my history from your last zxid on
		"1→3 ACKLD",          // follower: history and currentEpoch on disk
		"3→1 COMMITLD",       // leader: a quorum has it; broadcast begins
	}
	got := between(cl.trace, 1, 3)
	if !slices.Equal(got, want) {
		t.Fatalf("trace between follower 1 and leader 3:\n got  %q\n want %q", got, want)
	}
}

func TestBroadcastTrace(t *testing.T) {
	cl := newCluster(t, 3, 0)
	cl.start()
	cl.until("a leader", 50, cl.settled)
	cl.trace = nil
	v := cl.propose(1) // a follower proposes: it goes through the leader
	cl.until("delivered everywhere", 10, func() bool { return cl.has(v) })
	want := []string{
		"1→3 REQUEST", // follower forwards its proposal
		"3→1 PROPOSE", // leader orders it
		"3→1 COMMIT",  // a quorum acknowledged (ACKs are left out of the trace)
	}
	if got := between(cl.trace, 1, 3); !slices.Equal(got, want) {
		t.Fatalf("trace between follower 1 and leader 3:\n got  %q\n want %q", got, want)
	}
	cl.agree()
}

func TestLateFollowerIsSynchronizedWhileBroadcasting(t *testing.T) {
	cl := newCluster(t, 3, 0)
	cl.start(2, 3)
	cl.until("2 and 3 settle", 60, cl.settled)
	a := cl.propose(3)
	cl.until("a delivered", 10, func() bool { return cl.has(a) })
	cl.start(1)
	cl.until("1 joins", 60, cl.settled)
	b := cl.propose(1)
	cl.until("b everywhere", 10, func() bool { return cl.has(a, b) })
	cl.agree()
	if s := cl.nodes[1].c.Status(); s.Role != core.Following {
		t.Fatalf("late peer 1 is %s, want FOLLOWING", s.Role)
	}
}

func TestSyncWaitsForEverythingCommittedBefore(t *testing.T) {
	cl := newCluster(t, 3, 0)
	cl.start()
	cl.until("a leader", 50, cl.settled)
	v := cl.propose(cl.leader())
	cl.until("v delivered on the leader", 10, func() bool { return slices.Contains(cl.values(cl.leader()), v) })
	n := cl.nodes[1]
	seq, err := n.c.Sync()
	if err != nil {
		t.Fatal(err)
	}
	cl.until("DeliverSync on 1", 20, func() bool { _, ok := n.syncs[seq]; return ok })
	at := n.syncs[seq]
	if i := slices.Index(cl.values(1), v); i < 0 || i >= at {
		t.Fatalf("DeliverSync on 1 came after %d deliveries, before the delivery of %d (at %d)", at, v, i)
	}
}

// A follower's Sync must not leave a gap in the numbers of its proposals:
// the leader takes them strictly in sequence.
func TestFollowerProposesAfterSync(t *testing.T) {
	cl := newCluster(t, 3, 0)
	cl.start()
	cl.until("a leader", 50, cl.settled)
	a := cl.propose(1)
	if _, err := cl.nodes[1].c.Sync(); err != nil {
		t.Fatal(err)
	}
	cl.process(cl.nodes[1])
	b := cl.propose(1)
	cl.until("the proposal after the sync", 30, func() bool { return cl.has(a, b) })
	cl.agree()
}

// However far behind a follower is, no message carries much more than
// MaxBatchBytes (8 MiB by default) of data: a DIFF of 40 MiB is split.
func TestLargeHistoryTravelsInBoundedMessages(t *testing.T) {
	cl := newCluster(t, 3, 0)
	cl.start(2, 3)
	cl.until("2 and 3 settle", 60, cl.settled)
	big := make([]byte, 3<<20)
	var vals []uint64
	for i := 0; i < 13; i++ {
		cl.nextVal++
		data := append(append([]byte{}, big...), byte(i))
		if _, err := cl.nodes[3].c.Propose(data, cl.now); err != nil {
			t.Fatal(err)
		}
		cl.process(cl.nodes[3])
		vals = append(vals, uint64(i))
		cl.deliver()
	}
	largest := 0
	cl.onSend = func(m core.Message) {
		n := 0
		for _, e := range m.Entries {
			n += len(e.Data)
		}
		largest = max(largest, n)
	}
	cl.start(1)
	cl.until("1 catches up", 60, func() bool { return len(cl.nodes[1].app) == 13 })
	if largest > 9<<20 {
		t.Fatalf("a message carried %d bytes of entries", largest)
	}
	if largest < 3<<20 {
		t.Fatalf("largest message only %d bytes: the history did not travel", largest)
	}
}
