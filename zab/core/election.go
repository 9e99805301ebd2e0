package core

import (
	"maps"
	"slices"
)

// Leader election, the course's rule refined as ZooKeeper's fast leader
// election: every looking voter proposes itself, adopts any better vote it
// hears (current epoch first, then last zxid, then id) and tells everyone;
// once a quorum of the same round agrees on its vote and nothing better
// arrives for Config.FinalizeWait (200ms, ZooKeeper's finalize wait), it
// decides: the runtime wakes the core at NextDeadline, so the decision never
// waits for a tick. A peer that finds the ensemble
// already running (replies from peers that follow or lead) joins the leader a
// quorum names. Election only picks a candidate: safety comes from discovery,
// where the leader gives up if a follower turns out to be more up to date.

type electionState struct {
	round      uint64
	vote       Vote
	votes      map[uint64]Vote // this round's votes of looking voters, own included
	outside    map[uint64]Message
	finalizing bool  // a quorum agrees on vote: decide at finalizeAt
	finalizeAt int64 // clock value at which to decide (with FinalizeWait)
	finalizeTk int   // tick at which to decide at the latest
	// early holds the newest CEPOCH of each peer that already follows this
	// peer while it still looks: elections end at slightly different
	// times, and the follower would otherwise resend only ticks later.
	// Kept across rounds (it is no more than a message the network
	// delayed), replayed by becomeLeader, dropped by becomeFollower, by a
	// LOOKING vote of its sender and by the loss of its connection.
	early map[uint64]Message
}

// becomeLooking enters a new election round.
func (c *Core) becomeLooking(why string) {
	prev := c.role
	c.fol = followerState{}
	c.role, c.phase, c.leader, c.ticks = Looking, Election, 0, 0
	c.ld = leaderState{}
	c.syncs = nil
	c.el.round++
	c.el.vote = c.selfVote()
	c.el.votes = map[uint64]Vote{}
	c.el.outside = map[uint64]Message{}
	c.el.finalizing = false
	if c.isVoter(c.cfg.ID) {
		c.el.votes[c.cfg.ID] = c.el.vote
	}
	c.tell(Looking, 0)
	if c.lookingStarted() {
		c.logger().WithField("from", prev.String()).Infof("becoming LOOKING: %s", why)
	} else { // another round of the same stretch: the summary says it
		c.logger().WithField("from", prev.String()).Debugf("becoming LOOKING: %s", why)
	}
	c.broadcastVote()
	c.checkQuorum() // a lone voter is its own quorum
}

func (c *Core) selfVote() Vote {
	return Vote{Leader: c.cfg.ID, Epoch: c.stable.CurrentEpoch, Zxid: c.log.last()}
}

// voteMsg is this peer's notification for peer to.
func (c *Core) voteMsg(to uint64) Message {
	return Message{Type: MsgVote, To: to, Round: c.el.round, State: c.role, Vote: c.el.vote}
}

// broadcastVote tells every voter this peer's vote. Observers only listen.
func (c *Core) broadcastVote() {
	for _, p := range c.peers {
		if c.isVoter(p) {
			c.send(c.voteMsg(p))
		}
	}
}

func (c *Core) tickElection() {
	if c.finalizeDue() {
		c.decide()
		return
	}
	if c.ticks > c.cfg.InitLimit {
		c.becomeLooking("election timed out")
		return
	}
	if c.ticks%resendTicks == 0 {
		c.broadcastVote()
	}
}

// stepVote handles a notification in any role.
func (c *Core) stepVote(m Message) {
	if c.role != Looking {
		// Tell a looking peer whom this peer follows or leads.
		if m.State == Looking {
			c.send(c.voteMsg(m.From))
		}
		return
	}
	if !c.isVoter(m.From) {
		return
	}
	if m.State == Looking {
		delete(c.el.early, m.From) // it looks again: its CEPOCH is stale
	} else {
		c.el.outside[m.From] = m
		c.maybeJoin(m.Vote)
		return
	}
	switch {
	case m.Round > c.el.round:
		c.el.round = m.Round
		clear(c.el.votes)
		c.el.vote = c.selfVote()
		c.adopt(m.Vote)
		c.broadcastVote()
	case m.Round < c.el.round:
		c.send(c.voteMsg(m.From))
		return
	case c.adopt(m.Vote):
		c.broadcastVote()
	case c.better(c.el.vote, m.Vote):
		// Ours is better and it does not know: our notification may have
		// reached it before it was looking. Waiting for the resend would
		// cost ticks.
		c.send(c.voteMsg(m.From))
	}
	c.el.votes[m.From] = m.Vote
	c.checkQuorum()
}

// adopt takes w as this peer's vote if it is better; voters count their own.
func (c *Core) adopt(w Vote) bool {
	changed := c.better(w, c.el.vote)
	if changed {
		c.el.vote = w
	}
	if c.isVoter(c.cfg.ID) {
		c.el.votes[c.cfg.ID] = c.el.vote
	}
	return changed
}

// checkQuorum starts the finalize wait when a quorum shares this peer's vote.
func (c *Core) checkQuorum() {
	n := 0
	for _, v := range c.el.votes {
		if v == c.el.vote {
			n++
		}
	}
	if n < c.quorum || !c.isVoter(c.cfg.ID) {
		c.el.finalizing = false
		return
	}
	if !c.el.finalizing {
		c.el.finalizing = true
		c.el.finalizeAt = c.now + int64(c.cfg.FinalizeWait)
		c.el.finalizeTk = c.ticks + finalizeTicks
		if c.cfg.FinalizeWait > 0 {
			// A whole tick period has passed by then, at least FinalizeWait:
			// the tick only decides if the clock stands still or jumps back.
			c.el.finalizeTk++
		}
	}
}

// finalizeDue reports whether the finalize wait is over.
func (c *Core) finalizeDue() bool {
	if !c.el.finalizing {
		return false
	}
	return c.ticks >= c.el.finalizeTk || (c.cfg.FinalizeWait > 0 && c.now >= c.el.finalizeAt)
}

// NextDeadline reports the clock value at which the core wants Wake called,
// if it waits for one: a looking peer's finalize wait. The runtime must call
// Wake (or Tick, or Step) once its clock reaches it.
func (c *Core) NextDeadline() (int64, bool) {
	if c.role != Looking || !c.el.finalizing || c.cfg.FinalizeWait == 0 {
		return 0, false
	}
	return c.el.finalizeAt, true
}

// Wake hands the core the clock, so it acts on a deadline (NextDeadline)
// without waiting for the next tick.
func (c *Core) Wake(now int64) {
	c.clock(now)
	c.checkDeadline()
}

// checkDeadline decides the election once its finalize wait is over.
func (c *Core) checkDeadline() {
	if c.role == Looking && c.finalizeDue() {
		c.decide()
	}
}

// stashEarly keeps a CEPOCH that reached this peer while it looks, for the
// case that it leads next.
func (c *Core) stashEarly(m Message) {
	if m.Type != MsgCEpoch || !c.isVoter(c.cfg.ID) {
		return
	}
	if c.el.early == nil {
		c.el.early = map[uint64]Message{}
	}
	c.el.early[m.From] = m
}

// replayEarly hands the new leader the CEPOCHs that came while it looked,
// in id order so output never depends on map order.
func (c *Core) replayEarly() {
	early := c.el.early
	c.el.early = nil
	ids := slices.Sorted(maps.Keys(early))
	for _, id := range ids {
		c.stepCEpoch(early[id])
	}
}

// maybeJoin follows a running leader when a quorum of voters outside the
// election names it and the leader itself says it leads.
func (c *Core) maybeJoin(v Vote) {
	if v.Leader == c.cfg.ID {
		return
	}
	lm, ok := c.el.outside[v.Leader]
	if !ok || lm.State != Leading || lm.Vote.Leader != v.Leader {
		return
	}
	// Votes of peers outside the election may be of different rounds; only
	// the leader they name matters, and the leader must say it leads.
	n := 0
	for _, m := range c.el.outside {
		if m.Vote.Leader == v.Leader {
			n++
		}
	}
	if n >= c.quorum {
		c.el.vote = lm.Vote
		c.becomeFollower(v.Leader)
	}
}

// decide ends the election with this peer's vote.
func (c *Core) decide() {
	if c.el.vote.Leader == c.cfg.ID {
		c.becomeLeader()
	} else {
		c.becomeFollower(c.el.vote.Leader)
	}
}
