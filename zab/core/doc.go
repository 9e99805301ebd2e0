// Package core is the Zab protocol as a deterministic state machine: no
// goroutines, no clock, no sockets, no unseeded randomness. Time enters as
// Tick calls and clock values handed in (for timestamps, and the election's
// finalize wait: the runtime calls Wake at NextDeadline), messages as Step
// calls, and everything the peer wants done leaves through Ready, in the
// shape of etcd's raft (Step/Tick/Ready/Advance). The runtime in package zab
// drives it over TCP and real disks; the simulator in package zab/sim drives
// whole ensembles of it through crashes, partitions and lost messages.
//
// # Roles and phases
//
//	            start, or any timeout
//	  ┌──────────────────────────────────────────┐
//	  ▼                                          │
//	LOOKING ── quorum agrees on me ──▶ LEADING: discovery ─▶ synchronization ─▶ broadcast
//	(election)                                   │
//	  │ ── quorum agrees on L, or the            │
//	  │    running ensemble names L ──▶ FOLLOWING L: discovery ─▶ synchronization ─▶ broadcast
//	  └──────────────────────────────────────────┘
//
// Election (election.go) picks the peer with the newest currentEpoch, then
// the highest last zxid, then the highest id; it decides FinalizeWait after a
// quorum agrees, and keeps a CEPOCH that arrives before it leads. Discovery (discovery.go) makes
// a new epoch above any a quorum promised. Synchronization
// (synchronization.go) makes every follower's history equal to the
// leader's. Broadcast (broadcast.go) orders, acknowledges and commits new
// proposals; requests.go forwards followers' proposals and answers Sync.
// The application hears LOOKING, FOLLOWING or LEADING only when a peer
// starts or stops broadcasting. A follower leaves its leader after
// syncLimit ticks without a message from it, or at once when the runtime
// reports the connection to it lost (MsgPeerLost, the core's one input
// that comes from the runtime rather than a peer).
//
// # Glossary: the Zab paper's names and ZooKeeper's
//
//	paper       ZooKeeper            here
//	CEPOCH      FOLLOWERINFO         MsgCEpoch: a follower's acceptedEpoch
//	NEWEPOCH    LEADERINFO           MsgNewEpoch: the leader's new epoch
//	ACKEPOCH    ACKEPOCH             MsgAckEpoch: promise, with currentEpoch and last zxid
//	NEWLEADER   DIFF/TRUNC/SNAP +    MsgNewLeader: the leader's history in one message,
//	            NEWLEADER            as DIFF, TRUNC or SNAP (Mode)
//	ACK(NEWLEADER) ACK               MsgAckLD
//	COMMIT(NEWLEADER) UPTODATE       MsgCommitLD
//	PROPOSE     PROPOSAL             MsgPropose: entries, each naming its predecessor
//	ACK         ACK                  MsgAck: cumulative, also the answer to PING
//	COMMIT      COMMIT               MsgCommit: everything up to Zxid is committed
//	–           PING                 MsgPing: heartbeat and commit point
//	–           REQUEST              MsgRequest: a follower's proposals for the leader
//	–           SYNC                 MsgSync, MsgSyncReply
//	–           (socket fails)       MsgPeerLost: local, from the runtime; a follower leaves its leader
//	history     txn log + snapshot   memLog: snapshot point plus entries after it
//
// # Persistence rules
//
// The Ready contract (ready.go) puts every write before every message that
// vouches for it:
//
//   - acceptedEpoch is on disk before ACKEPOCH leaves;
//   - the synchronized history is on disk before currentEpoch, and both
//     before ACKLD (ZooKeeper lost data when it did either the other way
//     round: ZOOKEEPER-4643, -4646, -3911);
//   - an entry is on disk before the ACK that covers it; the leader counts
//     its own copy only after Advance, so it never commits what only the
//     followers hold;
//   - a snapshot installed by SNAP is on disk before the log is cut.
//
// # Robustness
//
// Every leader–follower message carries the follower's session, a nonce drawn
// for each attempt to follow, so messages of an earlier attempt or of an
// earlier incarnation are ignored. PROPOSE names the predecessor of its
// first entry, ACKs are cumulative, and the leader resends to followers whose
// ACKs stop short, so lost, duplicated and reordered messages do no harm.
// A follower's proposals are taken in its sequence order only. Sync is
// answered after a heartbeat round that a quorum answered, so a deposed
// leader cannot answer it with a stale commit point.
//
// # Timestamps
//
// The leader stamps each proposal with max(its clock, previous stamp + 1).
// A new leader's history holds every committed entry, so its first stamp is
// above all of them: stamps strictly increase along the delivered order, also
// across leader changes and whatever the peers' clocks say.
package core
