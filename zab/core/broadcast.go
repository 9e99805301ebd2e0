package core

import "slices"

// Broadcast (Zab phase 3). The active leader gives each proposal the next
// zxid of its epoch and a timestamp above the previous one, logs it and sends
// PROPOSE; followers append it when it extends their log (each PROPOSE names
// its predecessor, so loss, duplication and reordering are harmless) and ACK
// cumulatively once it is on disk. The leader commits the highest zxid of its
// epoch that a quorum holds, in order, and tells followers with COMMIT.
// Heartbeats go both ways: PING from the leader, ACK in answer.

// propose orders one message (e names proposer and data); false means this
// leader had to step down.
func (c *Core) propose(e Entry) bool {
	last := c.log.last()
	z := NewZxid(c.ld.epoch, 1)
	if last.Epoch() == c.ld.epoch {
		if last.Counter() >= c.cfg.MaxCounter {
			c.becomeLooking("zxid counter exhausted: a new epoch is needed")
			return false
		}
		z = last + 1
	}
	e.Zxid, e.Timestamp = z, max(c.now, c.log.lastTimestamp()+1)
	c.appendEntries(e)
	for _, id := range c.followers() {
		if ps := c.ld.peers[id]; ps.nlSent {
			c.sendEntries(id, ps, last, []Entry{e})
		}
	}
	return true
}

// sendEntries sends es, which follow prev, joining the previous PROPOSE to
// the same follower when it ends at prev and has room; no message carries
// more than MaxBatchBytes of data but for a single large entry.
func (c *Core) sendEntries(to uint64, ps *peerState, prev Zxid, es []Entry) {
	c.sendBatched(Message{Type: MsgPropose, To: to, Epoch: c.ld.epoch, Session: ps.session, Zxid: prev}, es)
}

// sendBatched sends es in messages shaped like head (PROPOSE or REQUEST),
// joining the previous message to the same peer when it has the same type
// and room, and, for PROPOSE, ends where es begins. No message carries more
// than MaxBatchBytes of data but for a single large entry.
func (c *Core) sendBatched(head Message, es []Entry) {
	to := head.To
	for len(es) > 0 {
		if i, ok := c.lastMsg[to]; ok {
			m := &c.out.Messages[i]
			joins := m.Type == head.Type && len(m.Entries) > 0 &&
				(head.Type != MsgPropose || m.Entries[len(m.Entries)-1].Zxid == head.Zxid)
			if joins && c.lastBytes[to]+len(es[0].Data) <= c.cfg.MaxBatchBytes {
				m.Entries = append(m.Entries, es[0])
				c.lastBytes[to] += len(es[0].Data)
				head.Zxid, es = es[0].Zxid, es[1:]
				continue
			}
		}
		part := c.chunk(es)
		m := head
		m.Entries = slices.Clone(part)
		c.send(m)
		c.lastBytes[to] = dataBytes(part)
		head.Zxid, es = part[len(part)-1].Zxid, es[len(part):]
	}
}

// chunk returns the longest prefix of es within MaxBatchBytes, and at
// least one entry.
func (c *Core) chunk(es []Entry) []Entry {
	n := 0
	for i, e := range es {
		if n += len(e.Data); n > c.cfg.MaxBatchBytes && i > 0 {
			return es[:i]
		}
	}
	return es
}

func dataBytes(es []Entry) (n int) {
	for _, e := range es {
		n += len(e.Data)
	}
	return n
}

// stepPropose appends the entries that extend the follower's log.
func (c *Core) stepPropose(m Message) {
	epoch := c.stable.CurrentEpoch
	if c.fol.nl != nil {
		epoch = c.fol.nl.Epoch // the rest of a NEWLEADER's history
	}
	old := m.Epoch < epoch
	if c.phase == Discovery || m.Epoch > epoch || old && c.fencesOldEpochs() {
		return
	}
	prev := m.Zxid
	for _, e := range m.Entries {
		if e.Zxid <= c.log.last() {
			prev = e.Zxid
			continue // already have it
		}
		if c.log.last() != prev && (!old || c.fencesOldEpochs()) {
			break // a gap: the leader resends when our ACKs stop moving
		}
		c.appendEntries(e)
		c.dropPendingUpTo(e)
		prev = e.Zxid
	}
	c.fol.needAck = true
	if nl := c.fol.nl; nl != nil && c.log.last() >= nl.LastZxid {
		c.finishSync(nl)
	}
}

// stepCommit learns the commit point; COMMITLD, COMMIT and an active
// leader's PING also end synchronization if COMMITLD was lost.
func (c *Core) stepCommit(m Message) {
	if c.phase == Discovery || c.fol.nl != nil || m.Epoch != c.stable.CurrentEpoch {
		return
	}
	if c.phase == Synchronization && (m.Type != MsgPing || m.Active) {
		c.enterBroadcast()
	}
	z := m.Zxid
	if m.Type == MsgPing {
		z = m.Commit
		c.fol.pingRound = max(c.fol.pingRound, m.Round)
		c.fol.needAck = true
	}
	c.advanceCommit(z)
}

// noteAck records what an ACKLD or ACK says: the follower is synchronized
// (an ACK says so too when the ACKLD was lost), from which request number
// on it proposes, and how far its log matches ours. False: not for us.
func (c *Core) noteAck(m Message, ps *peerState) bool {
	if !ps.nlSent || m.Epoch != c.ld.epoch {
		return false
	}
	if !ps.synced {
		ps.synced, ps.nextSeq = true, m.Seq
	}
	ps.match = max(ps.match, min(m.Zxid, c.log.last()))
	return true
}

// stepAck records how far a follower's log matches ours.
func (c *Core) stepAck(m Message, ps *peerState) {
	if !c.noteAck(m, ps) {
		return
	}
	ps.round = max(ps.round, m.Round)
	c.maybeActivate()
	c.maybeCommit()
	c.answerSyncs()
}

// maybeCommit commits the highest zxid of this epoch a quorum holds.
func (c *Core) maybeCommit() {
	if !c.ld.active {
		return
	}
	matches := append(c.ld.matchBuf[:0], c.ld.selfMatch) // reused: this runs for every ACK
	for _, ps := range c.ld.peers {
		if ps.synced && ps.voting {
			matches = append(matches, ps.match)
		}
	}
	c.ld.matchBuf = matches
	need := c.commitQuorum()
	if len(matches) < need {
		return
	}
	slices.Sort(matches)
	q := matches[len(matches)-need]
	if q > c.commit && q.Epoch() == c.ld.epoch {
		c.advanceCommit(q)
		c.ld.commitDirty = true
	}
}

// resendToStuck resends entries to followers whose ACKs stopped short of
// our log for resendTicks ticks: a PROPOSE was lost. A follower behind our
// snapshot is dropped; it times out and comes back for SNAP.
func (c *Core) resendToStuck() {
	const maxResend = 1024
	for _, id := range slices.Clone(c.followers()) { // dropPeer may change the list
		ps := c.ld.peers[id]
		if !ps.synced || ps.match >= c.log.last() || ps.match != ps.prevMatch {
			ps.prevMatch, ps.stuck = ps.match, 0
			continue
		}
		if ps.stuck++; ps.stuck < resendTicks {
			continue
		}
		ps.stuck = 0
		if !c.log.contains(ps.match) {
			c.dropPeer(id)
			continue
		}
		rest, ok := c.entriesAfter(ps.match, maxResend)
		if !ok {
			continue
		}
		es := c.chunk(rest)
		if len(es) > maxResend {
			es = es[:maxResend]
		}
		c.logger().WithField("follower", id).Debugf("follower stuck at %s: resending %d entries", ps.match, len(es))
		c.sendEntries(id, ps, ps.match, es)
	}
}
