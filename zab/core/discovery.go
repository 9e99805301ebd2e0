package core

// Discovery (Zab phase 1). The elected leader collects CEPOCH from a quorum,
// proposes an epoch above every epoch they accepted (NEWEPOCH), and counts the
// quorum's ACKEPOCH. A follower persists acceptedEpoch before it answers,
// and never helps establish an epoch at or below one it already promised.
// If an ACKEPOCH shows a follower more up to date than the leader, the
// leader gives up: its history must contain everything a quorum may have
// committed.

func (c *Core) sendCEpoch() {
	c.send(Message{Type: MsgCEpoch, To: c.leader, Session: c.fol.session,
		AcceptedEpoch: c.stable.AcceptedEpoch, CurrentEpoch: c.stable.CurrentEpoch, LastZxid: c.log.last()})
}

func (c *Core) sendAckEpoch() {
	c.send(Message{Type: MsgAckEpoch, To: c.leader, Epoch: c.fol.newEpoch, Session: c.fol.session,
		CurrentEpoch: c.stable.CurrentEpoch, LastZxid: c.log.last(), Counted: c.fol.counted, NonVoting: c.fol.nonVoting})
}

// stepNewEpoch is the follower's answer to the leader's epoch.
func (c *Core) stepNewEpoch(m Message) {
	if c.phase != Discovery {
		return
	}
	if c.fol.newEpoch != 0 {
		if m.Epoch == c.fol.newEpoch {
			c.sendAckEpoch() // our answer was lost
		}
		return
	}
	switch {
	case m.Epoch > c.stable.AcceptedEpoch || !c.fencesOldEpochs():
		c.stable.AcceptedEpoch = m.Epoch
		c.persistStable()
		c.fol.counted = true
	case m.Epoch == c.stable.AcceptedEpoch:
		// Promised already, perhaps to a rival with the same number: answer
		// without counting, as ZooKeeper does, so two leaders can't share it.
	case m.Established:
		// The epoch is settled; we may copy it but our promise of a newer
		// epoch forbids our ACKs to count in it.
		c.fol.nonVoting = true
	default:
		c.becomeLooking("leader proposes an epoch below the one we accepted")
		return
	}
	c.fol.newEpoch = m.Epoch
	c.sendAckEpoch()
}

// stepCEpoch registers a follower's attempt with the leader.
func (c *Core) stepCEpoch(m Message) {
	ps := c.ld.peers[m.From]
	if ps == nil || ps.session != m.Session {
		ps = &peerState{session: m.Session}
		c.addPeer(m.From, ps)
	}
	ps.lastHeard = c.ticks
	if c.ld.epoch != 0 {
		c.sendNewEpoch(m.From, ps)
		return
	}
	if c.isVoter(m.From) && !c.ld.cepochs[m.From] {
		c.ld.cepochs[m.From] = true
		c.ld.maxAccepted = max(c.ld.maxAccepted, m.AcceptedEpoch)
	}
	c.maybeChooseEpoch()
}

// maybeChooseEpoch proposes the new epoch once a quorum reported.
func (c *Core) maybeChooseEpoch() {
	if len(c.ld.cepochs) < c.quorum {
		return
	}
	c.ld.epoch = c.ld.maxAccepted + 1
	c.stable.AcceptedEpoch = c.ld.epoch
	c.persistStable()
	c.ld.ackedEpoch[c.cfg.ID] = true
	c.logger().WithField("new_epoch", c.ld.epoch).Debug("proposing new epoch")
	for _, id := range c.followers() {
		c.sendNewEpoch(id, c.ld.peers[id])
	}
	c.maybeEstablish()
}

func (c *Core) sendNewEpoch(to uint64, ps *peerState) {
	c.send(Message{Type: MsgNewEpoch, To: to, Epoch: c.ld.epoch, Session: ps.session, Established: c.ld.established})
}

// stepAckEpoch counts a follower's promise and, once the epoch stands,
// synchronizes the follower.
func (c *Core) stepAckEpoch(m Message, ps *peerState) {
	if c.ld.epoch == 0 || m.Epoch != c.ld.epoch {
		return
	}
	if ps.acked {
		if ps.nlSent && c.ticks-ps.nlTick >= resendTicks {
			c.sendNewLeader(m.From, ps) // our NEWLEADER may have been lost
		}
		return
	}
	ps.acked, ps.lastZxid = true, m.LastZxid
	ps.voting = c.isVoter(m.From) && !m.NonVoting
	if c.ld.established {
		c.sendNewLeader(m.From, ps)
		return
	}
	if !m.Counted || !c.isVoter(m.From) {
		return
	}
	theirs := Vote{Epoch: m.CurrentEpoch, Zxid: m.LastZxid}
	ours := Vote{Epoch: c.stable.CurrentEpoch, Zxid: c.log.last()}
	if ours.Less(theirs) && c.fencesOldEpochs() {
		c.becomeLooking("a follower is more up to date than this leader")
		return
	}
	c.ld.ackedEpoch[m.From] = true
	c.maybeEstablish()
}

// maybeEstablish takes the epoch once a quorum promised it, and starts
// synchronization with everyone who answered.
func (c *Core) maybeEstablish() {
	if c.ld.established || len(c.ld.ackedEpoch) < c.quorum {
		return
	}
	c.ld.established = true
	c.phase = Synchronization
	c.stable.CurrentEpoch = c.ld.epoch
	c.persistStable()
	c.ld.initialLast = c.log.last()
	c.ld.selfMatch = c.durableLast()
	c.logger().Debugf("epoch %d established", c.ld.epoch)
	for _, id := range c.followers() {
		if ps := c.ld.peers[id]; ps.acked {
			c.sendNewLeader(id, ps)
		}
	}
	if c.skipsSynchronization() {
		c.activate()
		return
	}
	c.maybeActivate()
}

// durableLast is the newest log zxid already on disk: entries still waiting
// in the output are not.
func (c *Core) durableLast() Zxid {
	if len(c.out.Entries) == 0 {
		return c.log.last()
	}
	z, _ := c.log.floor(c.out.Entries[0].Zxid - 1)
	return z
}
