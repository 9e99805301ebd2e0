package core

import "slices"

// peerState is the leader's view of one follower's current attempt.
type peerState struct {
	session   uint64
	acked     bool // ACKEPOCH arrived
	lastZxid  Zxid // follower's last zxid when it sent ACKEPOCH
	voting    bool // its ACKs count for commits
	nlSent    bool // NEWLEADER sent; PROPOSE, COMMIT and PING flow from then on
	nlTick    int
	synced    bool // ACKLD arrived
	match     Zxid // follower's log equals ours, durably, up to here
	prevMatch Zxid // match at the previous tick, to notice a stuck follower
	stuck     int
	lastHeard int
	round     uint64 // newest heartbeat round it answered
	nextSeq   uint64 // sequence number of its next REQUEST
}

// leaderState lives from becomeLeader to the next becomeLooking.
type leaderState struct {
	epoch       uint32          // the new epoch; 0 until a quorum of CEPOCH arrived
	cepochs     map[uint64]bool // voters whose CEPOCH arrived, self included
	maxAccepted uint32
	ackedEpoch  map[uint64]bool // voters whose counted ACKEPOCH arrived, self included
	established bool            // a quorum accepted epoch: no other leader can have it
	active      bool            // initial history committed: broadcasting
	initialLast Zxid            // last zxid of the history the epoch started with
	selfMatch   Zxid            // own log durable up to here
	peers       map[uint64]*peerState
	ids         []uint64 // keys of peers, ascending: output never depends on map order
	round       uint64   // heartbeat round last sent
	pingWanted  bool     // a sync waits: send a heartbeat round at flush
	commitDirty bool     // commit advanced: flush sends COMMIT
	syncWaits   []syncWait
	matchBuf    []Zxid // maybeCommit's scratch space
}

// becomeLeader starts discovery as the elected leader.
func (c *Core) becomeLeader() {
	c.role, c.phase, c.leader, c.ticks = Leading, Discovery, c.cfg.ID, 0
	c.ld = leaderState{
		cepochs:     map[uint64]bool{c.cfg.ID: true},
		maxAccepted: c.stable.AcceptedEpoch,
		ackedEpoch:  map[uint64]bool{},
		peers:       map[uint64]*peerState{},
	}
	c.logger().Debug("elected: leading discovery")
	c.maybeChooseEpoch()
	c.replayEarly()
}

// stepLeader handles a message from a follower.
func (c *Core) stepLeader(m Message) {
	if m.Type == MsgCEpoch {
		c.stepCEpoch(m)
		return
	}
	ps := c.ld.peers[m.From]
	if ps == nil || ps.session != m.Session {
		return
	}
	ps.lastHeard = c.ticks
	switch m.Type {
	case MsgAckEpoch:
		c.stepAckEpoch(m, ps)
	case MsgAckLD:
		c.stepAckLD(m, ps)
	case MsgAck:
		c.stepAck(m, ps)
	case MsgRequest:
		c.stepRequest(m, ps)
	case MsgSync:
		c.stepSync(m, ps)
	}
}

// followers returns the peers with a current attempt, in id order. The
// slice is the leader's own: callers must not keep or change it.
func (c *Core) followers() []uint64 { return c.ld.ids }

// addPeer starts tracking a follower's attempt, replacing an older one.
func (c *Core) addPeer(id uint64, ps *peerState) {
	if _, ok := c.ld.peers[id]; !ok {
		i, _ := slices.BinarySearch(c.ld.ids, id)
		c.ld.ids = slices.Insert(c.ld.ids, i, id)
	}
	c.ld.peers[id] = ps
}

// dropPeer forgets a follower; it must start over to come back.
func (c *Core) dropPeer(id uint64) {
	delete(c.ld.peers, id)
	if i, ok := slices.BinarySearch(c.ld.ids, id); ok {
		c.ld.ids = slices.Delete(c.ld.ids, i, i+1)
	}
}

func (c *Core) tickLeader() {
	if !c.ld.active {
		if c.ticks > c.cfg.InitLimit {
			c.becomeLooking("epoch not established and synchronized within initLimit")
		}
		return
	}
	if !c.hasLiveQuorum() {
		c.becomeLooking("lost contact with a quorum for syncLimit ticks")
		return
	}
	c.sendPings()
	c.resendToStuck()
}

// hasLiveQuorum reports whether a quorum of voters, self included, was heard
// from within syncLimit ticks.
func (c *Core) hasLiveQuorum() bool {
	return c.quorumHas(true, func(ps *peerState) bool { return c.ticks-ps.lastHeard <= c.cfg.SyncLimit })
}

// quorumHas reports whether a quorum of voters agrees: this leader if self,
// and every synchronized voting follower for which ok holds. Every quorum
// count of an active leader goes through here (maybeCommit sorts instead,
// but with the same members and quorumSize).
func (c *Core) quorumHas(self bool, ok func(*peerState) bool) bool {
	n := 0
	if self {
		n++
	}
	for _, ps := range c.ld.peers {
		if ps.synced && ps.voting && ok(ps) {
			n++
		}
	}
	return n >= c.quorum
}

// sendPings starts a heartbeat round to every follower past NEWLEADER.
func (c *Core) sendPings() {
	c.ld.round++
	c.ld.pingWanted = false
	for _, id := range c.followers() {
		ps := c.ld.peers[id]
		if ps.nlSent {
			c.send(Message{Type: MsgPing, To: id, Epoch: c.ld.epoch, Session: ps.session,
				Round: c.ld.round, Commit: c.commit, Active: c.ld.active})
		}
	}
}

// flushLeader turns pending commit news and heartbeat wishes into messages.
func (c *Core) flushLeader() {
	if c.ld.pingWanted && c.ld.active {
		c.sendPings()
	}
	if !c.ld.commitDirty {
		return
	}
	c.ld.commitDirty = false
	for _, id := range c.followers() {
		ps := c.ld.peers[id]
		if ps.nlSent {
			c.send(Message{Type: MsgCommit, To: id, Epoch: c.ld.epoch, Session: ps.session, Zxid: c.commit})
		}
	}
}
