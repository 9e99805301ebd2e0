package core

// followerState is what a following peer (voter or observer) knows of its
// leader. It lives from becomeFollower to the next becomeLooking.
type followerState struct {
	session   uint64 // nonce of this attempt; fences the leader's view of it
	newEpoch  uint32 // epoch from NEWEPOCH; 0 until it arrives
	counted   bool   // our ACKEPOCH counted towards establishing newEpoch
	nonVoting bool   // we promised a newer epoch: our ACKs must not count
	lastHeard int    // tick of the newest message from the leader
	needAck   bool   // the log grew or a PING came: flush sends one ACK
	pingRound uint64 // newest heartbeat round heard, echoed in ACKs
	pending   []Entry
	pendSent  int    // tick pending requests were last sent
	baseSeq   uint64 // first sequence number of our requests in this attempt
	// nl is a NEWLEADER whose history continues in PROPOSE: it waits
	// until the log reaches nl.LastZxid (synchronization.go).
	nl *Message
}

// becomeFollower starts discovery with leader.
func (c *Core) becomeFollower(leader uint64) {
	c.role, c.phase, c.leader, c.ticks = Following, Discovery, leader, 0
	c.fol = followerState{session: c.cfg.Rand.Uint64() | 1}
	c.el.early = nil // CEPOCHs sent to us as a future leader: we follow instead
	c.logger().WithField("leader", leader).Debugf("following %d: discovery", leader)
	c.sendCEpoch()
}

// stepFollower handles a message from the leader this peer follows.
func (c *Core) stepFollower(m Message) {
	if m.Session != c.fol.session {
		return
	}
	c.fol.lastHeard = c.ticks
	switch m.Type {
	case MsgNewEpoch:
		c.stepNewEpoch(m)
	case MsgNewLeader:
		c.stepNewLeader(m)
	case MsgCommitLD, MsgCommit, MsgPing:
		c.stepCommit(m)
	case MsgPropose:
		c.stepPropose(m)
	case MsgSyncReply:
		c.stepSyncReply(m)
	}
}

func (c *Core) tickFollower() {
	switch c.phase {
	case Discovery, Synchronization:
		if c.ticks > c.cfg.InitLimit {
			c.becomeLooking("leader did not synchronize us in time")
			return
		}
		if c.ticks%resendTicks == 0 {
			c.resendDiscovery()
		}
	case Broadcast:
		if c.ticks-c.fol.lastHeard > c.cfg.SyncLimit {
			c.becomeLooking("leader silent for syncLimit ticks")
			return
		}
		c.resendRequests()
	}
}

// stepPeerLost ends following a leader whose connection failed. A leader
// that crashed closes its sockets, so a follower hears LOOKING at once
// instead of after syncLimit ticks of silence, while a leader that is only
// busy (a slow callback or fsync) keeps its followers for the full
// syncLimit. The leader itself ignores a lost follower: quorum ACKs and
// the ping rounds decide whether it still leads.
func (c *Core) stepPeerLost(m Message) {
	// A kept CEPOCH came on the lost connection: a sender that still
	// follows us sends it again (new connection, maybe new session), one
	// that crashed may have promised a newer epoch since.
	delete(c.el.early, m.From)
	if c.role == Following && m.From == c.leader {
		c.becomeLooking("connection to the leader lost")
	}
}

// resendDiscovery repeats the follower's last step, in case it was lost.
func (c *Core) resendDiscovery() {
	switch {
	case c.fol.nl != nil:
		// The rest of the history is on its way over the same connection.
	case c.phase == Synchronization:
		c.sendAckLD()
	case c.fol.newEpoch != 0:
		c.sendAckEpoch()
	default:
		c.sendCEpoch()
	}
}

// enterBroadcast starts taking proposals once the leader broadcasts.
func (c *Core) enterBroadcast() {
	c.phase = Broadcast
	c.fol.lastHeard = c.ticks
	c.fol.needAck = true
	c.tell(Following, c.leader)
	c.logger().WithField("leader", c.leader).Infof("becoming FOLLOWING %d", c.leader)
	c.quorumBack()
}

// flushFollower sends one cumulative ACK for everything the log holds.
func (c *Core) flushFollower() {
	if !c.fol.needAck || c.phase == Discovery || c.fol.nl != nil {
		return
	}
	c.fol.needAck = false
	c.send(Message{Type: MsgAck, To: c.leader, Epoch: c.stable.CurrentEpoch, Session: c.fol.session,
		Zxid: c.log.last(), Round: c.fol.pingRound, Seq: c.fol.baseSeq})
}
