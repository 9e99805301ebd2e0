package core

import "slices"

// Synchronization (Zab phase 2). The leader makes each follower's history
// equal to its own with one NEWLEADER message: DIFF (the follower's last
// zxid is a point of the leader's history: send what follows), TRUNC (the
// follower has entries the leader does not: cut back to the newest shared
// point, then send what follows) or SNAP (the follower is behind the
// leader's snapshot: send the snapshot and what follows). What does not fit
// in one message follows as PROPOSE; NEWLEADER says where the history ends.
// The follower persists the whole history, then currentEpoch, then answers
// ACKLD. Once a quorum
// answered, the leader commits the whole initial history (COMMITLD) and
// starts broadcasting. Followers that arrive later are synchronized the same
// way while broadcast goes on; their NEWLEADER says the leader is active.

// sendNewLeader brings follower to the leader's history.
func (c *Core) sendNewLeader(to uint64, ps *peerState) {
	m := Message{Type: MsgNewLeader, To: to, Epoch: c.ld.epoch, Session: ps.session,
		Active: c.ld.active, Commit: c.commit}
	f := ps.lastZxid
	if c.log.contains(f) {
		m.Mode, m.Zxid = SyncDiff, f
	} else if z, ok := c.log.floor(f); ok {
		m.Mode, m.Zxid = SyncTrunc, z
	} else {
		snap, err := c.cfg.Snapshots.LatestSnapshot()
		if err != nil || !c.log.contains(snap.Meta.Zxid) || snap.Meta.Zxid > c.commit {
			c.logger().WithError(err).WithField("follower", to).Error("no snapshot within the log for SNAP; follower must retry")
			return
		}
		m.Mode, m.Zxid, m.Snapshot = SyncSnap, snap.Meta.Zxid, &snap
	}
	// NEWLEADER carries what fits in one message; the rest follows at once
	// as PROPOSE, which a synchronizing follower takes in order.
	rest, ok := c.entriesAfter(m.Zxid, 0)
	if !ok {
		return
	}
	first := c.chunk(rest)
	m.Entries = slices.Clip(first) // the receiver must never write into the leader's log array
	m.LastZxid = m.Zxid            // where the whole history ends: the follower takes the epoch only there
	if len(rest) > 0 {
		m.LastZxid = rest[len(rest)-1].Zxid
	}
	ps.nlSent, ps.nlTick = true, c.ticks
	c.logger().WithField("follower", to).Debugf("sync by %s from %s", m.Mode, m.Zxid)
	c.send(m)
	if len(first) < len(rest) {
		c.sendEntries(to, ps, first[len(first)-1].Zxid, rest[len(first):])
	}
}

// stepNewLeader takes the leader's history.
func (c *Core) stepNewLeader(m Message) {
	if c.phase != Discovery || c.fol.newEpoch == 0 || m.Epoch != c.fol.newEpoch {
		return
	}
	if !c.applySync(m) {
		return
	}
	c.phase = Synchronization
	if c.log.last() < m.LastZxid {
		// The rest of the history follows as PROPOSE. Until it is all
		// here, this peer must not claim the new epoch: a currentEpoch
		// over a prefix of the epoch's initial history would win the next
		// election against a peer holding entries committed before, and
		// truncate them.
		c.fol.nl = &m
		return
	}
	c.finishSync(&m)
}

// finishSync takes the new epoch once the whole history of NEWLEADER nl is
// in the log (ZooKeeper's follower likewise takes it at NEWLEADER, which
// comes after the history).
func (c *Core) finishSync(nl *Message) {
	c.fol.nl = nil
	c.stable.CurrentEpoch = nl.Epoch
	c.persistStable()
	c.sendAckLD()
	c.advanceCommit(nl.Commit)
	if nl.Active {
		c.enterBroadcast()
	}
}

// applySync changes the log as m says; false means the sync is unusable and
// the peer went back to election.
func (c *Core) applySync(m Message) bool {
	switch m.Mode {
	case SyncSnap:
		if m.Snapshot == nil || m.Snapshot.Meta.Zxid < c.delivered {
			c.anomaly("SNAP would undo delivered transactions")
			return false
		}
		c.installSnapshot(m.Snapshot)
	case SyncTrunc:
		if m.Zxid < c.delivered || !c.log.contains(m.Zxid) {
			c.anomaly("TRUNC point is not in our history or below delivered")
			return false
		}
		c.truncate(m.Zxid)
	case SyncDiff:
		if c.log.last() != m.Zxid {
			c.anomaly("DIFF does not start at our last zxid")
			return false
		}
	default:
		return false
	}
	c.appendEntries(m.Entries...)
	c.dropPendingRequests()
	return true
}

// installSnapshot replaces the whole history; entries and truncation still
// waiting in the output are superseded by it.
func (c *Core) installSnapshot(s *Snapshot) {
	c.log.reset(s.Meta)
	c.out.Snapshot, c.out.Truncate, c.out.Entries = s, nil, nil
	c.delivered, c.commit = s.Meta.Zxid, s.Meta.Zxid
	c.out.Events = append(c.out.Events, Event{Kind: EventRestore, Snapshot: s})
}

// truncate drops log entries above z, also those not yet on disk.
func (c *Core) truncate(z Zxid) {
	if z >= c.log.last() {
		return
	}
	c.log.truncateAfter(z)
	if c.out.Truncate == nil || z < *c.out.Truncate {
		c.out.Truncate = &z
	}
	keep := c.out.Entries[:0]
	for _, e := range c.out.Entries {
		if e.Zxid <= z {
			keep = append(keep, e)
		}
	}
	c.out.Entries = keep
}

func (c *Core) sendAckLD() {
	if c.fol.baseSeq == 0 {
		c.fol.baseSeq = c.seq + 1
	}
	c.send(Message{Type: MsgAckLD, To: c.leader, Epoch: c.stable.CurrentEpoch, Session: c.fol.session,
		Zxid: c.log.last(), Seq: c.fol.baseSeq})
}

// stepAckLD records a follower level with the leader's history.
func (c *Core) stepAckLD(m Message, ps *peerState) {
	if !c.noteAck(m, ps) {
		return
	}
	if c.ld.active {
		c.send(Message{Type: MsgCommitLD, To: m.From, Epoch: c.ld.epoch, Session: ps.session, Zxid: c.commit})
		c.maybeCommit()
		return
	}
	c.maybeActivate()
}

// maybeActivate commits the initial history once a quorum holds it.
func (c *Core) maybeActivate() {
	if c.ld.active || !c.ld.established {
		return
	}
	if c.quorumHas(c.ld.selfMatch >= c.ld.initialLast, func(ps *peerState) bool { return ps.match >= c.ld.initialLast }) {
		c.activate()
	}
}

// activate starts broadcast: the initial history is committed.
func (c *Core) activate() {
	c.ld.active = true
	c.phase = Broadcast
	c.advanceCommit(c.ld.initialLast)
	for _, id := range c.followers() {
		if ps := c.ld.peers[id]; ps.synced {
			c.send(Message{Type: MsgCommitLD, To: id, Epoch: c.ld.epoch, Session: ps.session, Zxid: c.ld.initialLast})
		}
	}
	c.tell(Leading, c.cfg.ID)
	c.logger().Infof("becoming LEADING epoch %d", c.ld.epoch)
	c.quorumBack()
}

// anomaly gives up a sync that contradicts this peer's history. In a correct
// ensemble it never happens; the simulator treats it as a violation.
func (c *Core) anomaly(why string) {
	c.anomalies++
	c.logger().Error("sync refused: " + why)
	c.becomeLooking(why)
}
