package core

import (
	"errors"
	"fmt"
	"slices"

	"github.com/sirupsen/logrus"
)

// ErrNoLeader is returned by Propose and Sync while the peer is not part of
// an established, broadcasting ensemble.
var ErrNoLeader = errors.New("zab: no established leader")

// Restored is the durable state a peer starts from.
type Restored struct {
	Stable   StableState
	Snapshot SnapshotMeta // the newest snapshot's place; zero for none
	Entries  []Entry      // the log after the snapshot
}

// Core is one peer's protocol state machine. It is not safe for concurrent
// use: one goroutine owns it and calls Tick, Step, Propose, Sync, Ready and
// Advance (the runtime queues the application's calls for that goroutine).
type Core struct {
	cfg    Config
	voters map[uint64]bool
	peers  []uint64 // every other peer, voters and observers, ascending
	quorum int
	lg     logrus.FieldLogger

	log       memLog
	stable    StableState
	delivered Zxid // last zxid handed to the application; never above commit
	commit    Zxid // highest zxid known committed; never above log.last()
	durable   Zxid // newest log entry the runtime reported on disk (Advance); memory keeps the data above it

	role   Role
	phase  Phase
	leader uint64
	ticks  int    // ticks since the current phase began
	now    int64  // the newest clock value handed in
	seq    uint64 // number of this peer's last Propose; the leader orders them without gaps
	sseq   uint64 // number of this peer's last Sync; a separate count, so syncs leave no gaps in seq

	anomalies int // syncs that contradicted this peer's history; always 0 in a correct ensemble

	told       Role // last status the application heard, with toldLeader
	toldLeader uint64

	el  electionState
	nq  quorumWatch
	fol followerState
	ld  leaderState

	syncs []pendingSync // this peer's own Sync calls, oldest first

	out       Ready
	lastMsg   map[uint64]int // newest index in out.Messages per destination
	lastBytes map[uint64]int // data bytes in that message, when it carries entries
}

// New builds a peer from its configuration and durable state. It starts
// Looking.
func New(cfg Config, st Restored) (*Core, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	c := &Core{cfg: cfg, voters: map[uint64]bool{}, lastMsg: map[uint64]int{}, lastBytes: map[uint64]int{}}
	for _, id := range cfg.Voters {
		c.voters[id] = true
	}
	for _, id := range append(append([]uint64{}, cfg.Voters...), cfg.Observers...) {
		if id != cfg.ID {
			c.peers = append(c.peers, id)
		}
	}
	slices.Sort(c.peers)
	c.quorum = len(cfg.Voters)/2 + 1
	c.lg = cfg.Logger.WithField("peer", cfg.ID)
	if err := c.restore(st); err != nil {
		return nil, err
	}
	c.told = Role(255)
	c.becomeLooking("start")
	return c, nil
}

func (c *Core) restore(st Restored) error {
	c.stable = st.Stable
	c.log.base = st.Snapshot
	prev, ts := st.Snapshot.Zxid, st.Snapshot.Timestamp
	for _, e := range st.Entries {
		if e.Zxid <= prev || e.Timestamp <= ts {
			return fmt.Errorf("%w: log entry %s out of order after %s", ErrConfig, e.Zxid, prev)
		}
		prev, ts = e.Zxid, e.Timestamp
	}
	c.log.append(slices.Clone(st.Entries)...)
	c.delivered, c.commit = st.Snapshot.Zxid, st.Snapshot.Zxid
	c.durable = c.log.last()
	return nil
}

// isVoter reports whether id votes.
func (c *Core) isVoter(id uint64) bool { return c.voters[id] }

// Tick advances the core's time by one tick; now is the peer's clock.
func (c *Core) Tick(now int64) {
	c.clock(now)
	c.ticks++
	c.watchTick()
	switch c.role {
	case Looking:
		c.tickElection()
	case Following:
		c.tickFollower()
	case Leading:
		c.tickLeader()
	}
}

// Step hands the core one received message.
func (c *Core) Step(m Message, now int64) {
	c.clock(now)
	c.step(m)
	c.checkDeadline()
}

func (c *Core) step(m Message) {
	if m.To != c.cfg.ID || m.From == c.cfg.ID {
		return
	}
	if m.Type != MsgPeerLost {
		c.watchHeard(m.From)
	}
	switch m.Type {
	case MsgVote:
		c.stepVote(m)
		return
	case MsgPeerLost:
		c.stepPeerLost(m)
		return
	}
	switch c.role {
	case Following:
		if m.From == c.leader {
			c.stepFollower(m)
		} else if c.takesStrayPropose(m) {
			c.stepPropose(m)
		}
	case Leading:
		c.stepLeader(m)
	case Looking:
		c.stashEarly(m)
	}
}

func (c *Core) clock(now int64) {
	if now > c.now {
		c.now = now
	}
}

// Propose asks for data to be delivered everywhere. It returns at once with
// the sequence number the delivery will carry (with this peer's id and
// Config.Incarnation). If the peer goes Looking before the message is
// committed, it may still be delivered later, under the next leader, or
// never.
func (c *Core) Propose(data []byte, now int64) (uint64, error) {
	if !c.Accepting() {
		return 0, ErrNoLeader
	}
	seq := c.seq + 1
	return seq, c.ProposeSeq(seq, data, now)
}

// ProposeSeq is Propose with the number chosen by the caller, which must
// exceed every number used before. The runtime numbers requests when the
// application makes them and hands them in later; one that arrives when
// the peer no longer accepts requests is dropped (ErrNoLeader), but its
// number is used up, so the next leader never waits for it.
func (c *Core) ProposeSeq(seq uint64, data []byte, now int64) error {
	c.clock(now)
	c.seq = max(c.seq, seq)
	if !c.Accepting() {
		return ErrNoLeader
	}
	e := Entry{Proposer: c.cfg.ID, Incarnation: c.cfg.Incarnation, Seq: seq, Data: data}
	if c.role == Leading {
		if !c.propose(e) {
			return ErrNoLeader
		}
		return nil
	}
	c.forward(e)
	return nil
}

// Sync asks for an EventSync that comes after the delivery of everything
// this peer proposed before the call and everything committed anywhere
// before it. Pending syncs are dropped when the peer goes Looking.
func (c *Core) Sync() (uint64, error) {
	if !c.Accepting() {
		return 0, ErrNoLeader
	}
	seq := c.sseq + 1
	return seq, c.SyncSeq(seq)
}

// SyncSeq is Sync with the number chosen by the caller, as ProposeSeq.
func (c *Core) SyncSeq(seq uint64) error {
	c.sseq = max(c.sseq, seq)
	if !c.Accepting() {
		return ErrNoLeader
	}
	s := pendingSync{seq: seq, reqSeq: c.seq, sentTick: c.ticks}
	c.syncs = append(c.syncs, s)
	if c.role == Leading {
		c.leaderSync(c.cfg.ID, s.seq)
	} else {
		c.sendSync(s)
	}
	return nil
}

// Accepting reports whether Propose and Sync are taken now: the peer leads
// or follows an established, broadcasting leader.
func (c *Core) Accepting() bool { return c.phase == Broadcast }

// HasReady reports whether Ready has anything to hand out.
func (c *Core) HasReady() bool {
	c.flush()
	return !c.out.IsEmpty()
}

// Ready hands out what the core wants done (see Ready for the order).
func (c *Core) Ready() Ready {
	c.flush()
	rd := c.out
	c.out = Ready{}
	clear(c.lastMsg)
	clear(c.lastBytes)
	return rd
}

// evict drops from memory the data of entries both delivered and on disk,
// beyond what the bounds keep, when the log on disk can give it back.
func (c *Core) evict() {
	if c.cfg.Log != nil {
		c.log.evict(min(c.delivered, c.durable), c.cfg.KeepEntries, c.cfg.KeepBytes)
	}
}

// Advance tells the core that rd has been persisted and sent. The leader
// counts its own acknowledgement of rd's entries only now, and memory may
// drop their data only now (a follower may need them before the disk has
// them).
func (c *Core) Advance(rd Ready) {
	if rd.Snapshot != nil { // the whole history now: the log was reset to it
		c.durable = rd.Snapshot.Meta.Zxid
	}
	if rd.Truncate != nil {
		c.durable = min(c.durable, *rd.Truncate)
	}
	if len(rd.Entries) > 0 {
		c.durable = max(c.durable, rd.Entries[len(rd.Entries)-1].Zxid)
		c.evict() // what was delivered before it was durable may go now
	}
	if c.role == Leading && len(rd.Entries) > 0 {
		last := rd.Entries[len(rd.Entries)-1].Zxid
		if last > c.ld.selfMatch && c.log.contains(last) {
			c.ld.selfMatch = last
			c.maybeActivate()
			c.maybeCommit()
		}
	}
}

// Compact forgets log entries at or below z: the runtime has a durable
// snapshot of the application at z, which must be a delivered zxid.
func (c *Core) Compact(z Zxid) {
	if z <= c.delivered {
		c.log.compact(z)
	}
}

// send queues a message for the runtime.
func (c *Core) send(m Message) {
	m.From = c.cfg.ID
	c.lastMsg[m.To] = len(c.out.Messages)
	c.out.Messages = append(c.out.Messages, m)
}

// persistStable records that the stable state changed.
func (c *Core) persistStable() {
	st := c.stable
	c.out.Stable = &st
}

// appendEntries extends the log and queues the entries for the disk.
func (c *Core) appendEntries(es ...Entry) {
	c.log.append(es...)
	c.out.Entries = append(c.out.Entries, es...)
}

// tell queues a status callback when what the application knows changed.
func (c *Core) tell(r Role, leader uint64) {
	if r == c.told && leader == c.toldLeader {
		return
	}
	c.told, c.toldLeader = r, leader
	c.out.Events = append(c.out.Events, Event{Kind: EventStatus, Role: r, Leader: leader})
}

// advanceCommit raises the commit point and delivers what it covers.
func (c *Core) advanceCommit(z Zxid) {
	if z > c.log.last() {
		z = c.log.last()
	}
	if z <= c.commit {
		return
	}
	c.commit = z
	for _, e := range c.log.between(c.delivered, c.commit) {
		c.out.Events = append(c.out.Events, Event{Kind: EventDeliver, Entry: e})
		c.delivered = e.Zxid
	}
	c.evict()
	c.fireSyncs()
}

// flush turns pending acknowledgements into messages before output leaves.
func (c *Core) flush() {
	switch c.role {
	case Following:
		c.flushFollower()
	case Leading:
		c.flushLeader()
	}
}

// Status is a read-only view of the core for tests and monitoring.
type Status struct {
	ID          uint64
	Role        Role
	Phase       Phase
	Leader      uint64
	Epoch       uint32 // the leader's new epoch while leading, else currentEpoch
	Established bool   // leading an epoch a quorum accepted
	Stable      StableState
	Last        Zxid
	Commit      Zxid
	Delivered   Zxid
	Anomalies   int // syncs that contradicted this peer's history (a protocol bug)
}

// Status reports the core's state.
func (c *Core) Status() Status {
	s := Status{ID: c.cfg.ID, Role: c.role, Phase: c.phase, Leader: c.leader, Epoch: c.stable.CurrentEpoch,
		Stable: c.stable, Last: c.log.last(), Commit: c.commit, Delivered: c.delivered, Anomalies: c.anomalies}
	if c.role == Leading {
		s.Epoch = c.ld.epoch
		s.Established = c.ld.established
	}
	return s
}

// History returns the snapshot point and the entries after it, for tests
// and checks: entries whose data memory dropped are read back from the
// durable log, or come without data where it cannot give them.
func (c *Core) History() (SnapshotMeta, []Entry) {
	if es, ok := c.entriesAfter(c.log.base.Zxid, 0); ok {
		return c.log.base, slices.Clone(es)
	}
	es := make([]Entry, 0, c.log.size())
	for _, n := range c.log.old {
		es = append(es, n.entry())
	}
	return c.log.base, append(es, c.log.tail...)
}

func (c *Core) logger() logrus.FieldLogger {
	// Names, not numbers: a JSON log (log.format=json) shows what the text
	// one shows ("LEADING", "0x100000000"), so a query by role finds it.
	return c.lg.WithFields(logrus.Fields{"role": c.role.String(), "epoch": c.stable.CurrentEpoch, "zxid": c.log.last().String()})
}
