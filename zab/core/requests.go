package core

// Requests and syncs: how a follower's application proposes through the
// leader, and how Sync finds a point after every committed write.
//
// A follower forwards proposals in REQUEST messages and keeps them until they
// show up in its log; unanswered ones are resent. The leader takes a
// follower's requests strictly in sequence number order (nextSeq, learnt from
// ACKLD), so none is ordered twice or out of order, whatever the network
// does. When the follower loses its leader the pending requests are dropped:
// Status(LOOKING) tells the application they may be lost.
//
// A sync is answered with the leader's last ordered zxid, once the leader
// has ordered every request the follower made before the sync (SYNC names
// the last one, and the leader ignores the SYNC until then; the follower
// resends it), and only after a quorum answered a heartbeat sent after the
// sync arrived: that proves no newer leader had committed anything by then
// (the ReadIndex idea of Raft). The follower fires the sync once it has
// delivered up to that zxid, so a SYNCREPLY that overtakes a COMMIT does no
// harm: the sync waits for the delivery.

type pendingSync struct {
	seq      uint64
	reqSeq   uint64 // number of this peer's last Propose before the sync
	zxid     Zxid
	known    bool // zxid arrived
	sentTick int
}

type syncWait struct {
	from  uint64
	seq   uint64
	zxid  Zxid
	round uint64 // heartbeat round whose quorum answer releases it
}

// forward sends a proposal of this follower to the leader.
func (c *Core) forward(e Entry) {
	if len(c.fol.pending) == 0 {
		c.fol.pendSent = c.ticks
	}
	c.fol.pending = append(c.fol.pending, e)
	c.sendRequests([]Entry{e})
}

// sendRequests sends requests to the leader, joining the previous REQUEST
// while it has room.
func (c *Core) sendRequests(es []Entry) {
	c.sendBatched(Message{Type: MsgRequest, To: c.leader, Epoch: c.stable.CurrentEpoch, Session: c.fol.session}, es)
}

func (c *Core) sendSync(s pendingSync) {
	c.send(Message{Type: MsgSync, To: c.leader, Epoch: c.stable.CurrentEpoch, Session: c.fol.session,
		Seq: s.seq, ReqSeq: s.reqSeq})
}

// dropPendingUpTo forgets requests the log now holds.
func (c *Core) dropPendingUpTo(e Entry) {
	if e.Proposer != c.cfg.ID {
		return
	}
	p := c.fol.pending
	i := 0
	for i < len(p) && p[i].Seq <= e.Seq {
		i++
	}
	if i > 0 {
		c.fol.pendSent = c.ticks // progress: only requests stuck this long are resent
	}
	c.fol.pending = p[i:]
}

func (c *Core) dropPendingRequests() { c.fol.pending = nil }

// resendRequests repeats requests and syncs the leader has not answered.
func (c *Core) resendRequests() {
	if len(c.fol.pending) > 0 && c.ticks-c.fol.pendSent >= 2*resendTicks {
		c.fol.pendSent = c.ticks
		c.sendRequests(c.fol.pending)
	}
	for i := range c.syncs {
		s := &c.syncs[i]
		if !s.known && c.ticks-s.sentTick >= 2*resendTicks {
			s.sentTick = c.ticks
			c.sendSync(*s)
		}
	}
}

// stepRequest orders a follower's proposals, in its sequence.
func (c *Core) stepRequest(m Message, ps *peerState) {
	if !c.ld.active || !ps.synced || m.Epoch != c.ld.epoch {
		return
	}
	for _, e := range m.Entries {
		if e.Seq != ps.nextSeq {
			continue // a duplicate, or a gap the follower's resend will fill
		}
		if !c.propose(Entry{Proposer: m.From, Incarnation: e.Incarnation, Seq: e.Seq, Data: e.Data}) {
			return
		}
		ps.nextSeq++
	}
}

// stepSync registers a follower's sync once every request it made before
// the sync is ordered; until then the follower resends the SYNC.
func (c *Core) stepSync(m Message, ps *peerState) {
	if !ps.synced || m.Epoch != c.ld.epoch || m.ReqSeq >= ps.nextSeq {
		return
	}
	c.leaderSync(m.From, m.Seq)
}

// leaderSync registers a sync of peer from at the last zxid this leader
// ordered: it covers everything committed anywhere and every request from
// ordered before. The next heartbeat round's quorum answer releases it.
func (c *Core) leaderSync(from, seq uint64) {
	if !c.ld.active {
		return
	}
	c.ld.syncWaits = append(c.ld.syncWaits, syncWait{from: from, seq: seq, zxid: c.log.last(), round: c.ld.round + 1})
	c.ld.pingWanted = true
	c.answerSyncs()
}

// answerSyncs releases the syncs whose heartbeat round a quorum answered.
func (c *Core) answerSyncs() {
	for len(c.ld.syncWaits) > 0 {
		w := c.ld.syncWaits[0]
		if !c.quorumHas(true, func(ps *peerState) bool { return ps.round >= w.round }) {
			return
		}
		c.ld.syncWaits = c.ld.syncWaits[1:]
		if w.from == c.cfg.ID {
			c.syncPoint(w.seq, w.zxid)
		} else if ps := c.ld.peers[w.from]; ps != nil {
			c.send(Message{Type: MsgSyncReply, To: w.from, Epoch: c.ld.epoch, Session: ps.session, Seq: w.seq, Zxid: w.zxid})
		}
	}
}

func (c *Core) stepSyncReply(m Message) {
	if m.Epoch == c.stable.CurrentEpoch {
		c.syncPoint(m.Seq, m.Zxid)
	}
}

// syncPoint learns where sync seq stands and fires what is due.
func (c *Core) syncPoint(seq uint64, z Zxid) {
	for i := range c.syncs {
		if s := &c.syncs[i]; s.seq == seq && !s.known {
			s.zxid, s.known = z, true
		}
	}
	c.fireSyncs()
}

// fireSyncs emits the syncs whose point is delivered, oldest first.
func (c *Core) fireSyncs() {
	keep := c.syncs[:0]
	for _, s := range c.syncs {
		if s.known && s.zxid <= c.delivered {
			c.out.Events = append(c.out.Events, Event{Kind: EventSync, Seq: s.seq, Zxid: s.zxid})
		} else {
			keep = append(keep, s)
		}
	}
	c.syncs = keep
}
