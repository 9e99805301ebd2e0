package core

// Leader election, the course's rule refined as ZooKeeper's fast leader
// election: every looking voter proposes itself, adopts any better vote it
// hears (current epoch first, then last zxid, then id) and tells everyone;
// once a quorum of the same round agrees on its vote and nothing better
// arrives for finalizeTicks, it decides. A peer that finds the ensemble
// already running (replies from peers that follow or lead) joins the leader a
// quorum names. Election only picks a candidate: safety comes from discovery,
// where the leader gives up if a follower turns out to be more up to date.

type electionState struct {
	round    uint64
	vote     Vote
	votes    map[uint64]Vote // this round's votes of looking voters, own included
	outside  map[uint64]Message
	finalize int // tick at which to decide; 0 while no quorum agrees
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
	c.el.finalize = 0
	if c.isVoter(c.cfg.ID) {
		c.el.votes[c.cfg.ID] = c.el.vote
	}
	c.tell(Looking, 0)
	if c.lookingStarted() {
		c.logger().WithField("from", prev).Infof("becoming LOOKING: %s", why)
	} else { // another round of the same stretch: the summary says it
		c.logger().WithField("from", prev).Debugf("becoming LOOKING: %s", why)
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
	if c.el.finalize > 0 && c.ticks >= c.el.finalize {
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
	if m.State != Looking {
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
		c.el.finalize = 0
		return
	}
	if c.el.finalize == 0 {
		c.el.finalize = c.ticks + finalizeTicks
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
