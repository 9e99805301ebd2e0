package core_test

import (
	"testing"

	"zablab/zab/core"
)

// MsgPeerLost from the leader makes a follower LOOKING at once; the same
// report about another follower changes nothing, and a leader ignores a
// lost follower (quorum ACKs decide whether it still leads).
func TestPeerLostEndsFollowingOnlyForTheLeader(t *testing.T) {
	cl := newCluster(t, 3, 0)
	cl.start(1, 2, 3)
	cl.until("settled", 60, cl.settled)
	l := cl.leader()
	f, g := l%3+1, (l+1)%3+1
	lost := func(to, from uint64) {
		cl.nodes[to].c.Step(core.Message{Type: core.MsgPeerLost, From: from, To: to}, cl.now)
	}
	lost(f, g) // a fellow follower's connection: no reason to leave
	lost(l, f) // the leader keeps leading
	if s := cl.nodes[f].c.Status(); s.Role != core.Following || s.Phase != core.Broadcast {
		t.Fatalf("follower %d after losing follower %d: %v %v, want FOLLOWING in broadcast", f, g, s.Role, s.Phase)
	}
	if s := cl.nodes[l].c.Status(); s.Role != core.Leading {
		t.Fatalf("leader %d after losing follower %d: %v", l, f, s.Role)
	}
	lost(f, l)
	if s := cl.nodes[f].c.Status(); s.Role != core.Looking {
		t.Fatalf("follower %d after losing its leader %d: %v, want LOOKING at once", f, l, s.Role)
	}
	cl.until("settled again", 80, cl.settled)
	cl.agree()
}
