package core_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"zablab/zab/core"
)

// drainMsgs takes every message the core wants sent.
func drainMsgs(c *core.Core) []core.Message {
	var out []core.Message
	for c.HasReady() {
		rd := c.Ready()
		out = append(out, rd.Messages...)
		c.Advance(rd)
	}
	return out
}

// A CEPOCH kept while LOOKING dies with the connection it came on: after
// MsgPeerLost from its sender (the sender crashed; a restarted sender draws
// a new session and reports its accepted epoch anew), the new leader must
// not count it. Counted, it completes a quorum of CEPOCHs on the leader's
// own and the stale report alone, so the epoch is chosen before the live
// follower's CEPOCH arrives: here epoch 1, which peer 1 already accepted
// (from peer 2 before 2 crashed). Peer 1's ACKEPOCH then cannot count and
// the leader cannot establish the epoch until initLimit ticks pass
// (20 s at ZooKeeper's tickTime). ZooKeeper keeps a follower's
// FOLLOWERINFO only with its LearnerHandler, which ends with the socket.
func TestKeptCEpochDiesWithItsConnection(t *testing.T) {
	now := int64(time.Hour)
	c, err := core.New(core.Config{ID: 3, Voters: []uint64{1, 2, 3}, InitLimit: 10, SyncLimit: 5,
		TickTime: zkTick, Rand: rand.New(rand.NewPCG(3, 3))}, core.Restored{})
	if err != nil {
		t.Fatal(err)
	}
	drainMsgs(c)
	// Peer 2 once decided to follow 3 and said so while 3 still looked;
	// then its connection to 3 failed (2 crashed).
	c.Step(core.Message{Type: core.MsgCEpoch, From: 2, To: 3, Session: 7}, now)
	c.Step(core.Message{Type: core.MsgPeerLost, From: 2, To: 3}, now)
	// Peer 1 (accepted epoch 1 from peer 2 meanwhile, never established)
	// votes for 3, and 3 decides after the finalize wait.
	own := core.Vote{Leader: 3}
	c.Step(core.Message{Type: core.MsgVote, From: 1, To: 3, Round: 1, State: core.Looking, Vote: own}, now)
	drainMsgs(c)
	at, ok := c.NextDeadline()
	if !ok {
		t.Fatalf("no finalize deadline after a quorum agreed on peer 3")
	}
	c.Wake(at)
	if r := c.Status().Role; r != core.Leading {
		t.Fatalf("peer 3 is %v after the finalize wait, want LEADING", r)
	}
	drainMsgs(c)
	c.Step(core.Message{Type: core.MsgCEpoch, From: 1, To: 3, Session: 9, AcceptedEpoch: 1}, at)
	var proposed uint32
	for _, m := range drainMsgs(c) {
		if m.Type == core.MsgNewEpoch && m.To == 1 {
			proposed = m.Epoch
		}
	}
	if proposed == 0 {
		t.Fatalf("no NEWEPOCH to peer 1 after its CEPOCH")
	}
	// Peer 1 answers as a follower does: counted only above its promise.
	c.Step(core.Message{Type: core.MsgAckEpoch, From: 1, To: 3, Session: 9, Epoch: proposed, Counted: proposed > 1}, at)
	drainMsgs(c)
	if s := c.Status(); proposed <= 1 || s.Phase == core.Discovery {
		t.Fatalf("leader proposed epoch %d to peer 1, which accepted epoch 1, and is in %v after its ACKEPOCH: "+
			"the CEPOCH of crashed peer 2 (kept while looking, its connection since lost) completed the quorum",
			proposed, s.Phase)
	}
}
