package core

import "fmt"

// MsgType names a protocol message. Names follow the Zab paper; the comment
// gives ZooKeeper's name where it differs.
type MsgType uint8

const (
	MsgVote      MsgType = iota + 1 // election notification (ZooKeeper: Notification)
	MsgCEpoch                       // follower → leader, its acceptedEpoch (FOLLOWERINFO)
	MsgNewEpoch                     // leader → follower, the new epoch (LEADERINFO)
	MsgAckEpoch                     // follower → leader, its currentEpoch and last zxid
	MsgNewLeader                    // leader → follower, the history: DIFF, TRUNC or SNAP plus NEWLEADER
	MsgAckLD                        // follower → leader, history and currentEpoch on disk
	MsgCommitLD                     // leader → follower, the initial history is committed (UPTODATE)
	MsgPropose                      // leader → follower, new entries
	MsgAck                          // follower → leader, log on disk up to Zxid
	MsgCommit                       // leader → follower, committed up to Zxid
	MsgPing                         // leader → follower heartbeat; answered by MsgAck
	MsgRequest                      // follower → leader, proposals of the follower's application (REQUEST)
	MsgSync                         // follower → leader, asks for a sync point
	MsgSyncReply                    // leader → follower, the sync point

	// MsgPeerLost is local, never on the wire: the runtime tells the core
	// that its connection to peer From failed (closed or reset), as a
	// ZooKeeper follower sees its leader's socket fail. To is this peer.
	MsgPeerLost MsgType = 64
)

var msgNames = map[MsgType]string{
	MsgVote: "VOTE", MsgCEpoch: "CEPOCH", MsgNewEpoch: "NEWEPOCH", MsgAckEpoch: "ACKEPOCH",
	MsgNewLeader: "NEWLEADER", MsgAckLD: "ACKLD", MsgCommitLD: "COMMITLD", MsgPropose: "PROPOSE",
	MsgAck: "ACK", MsgCommit: "COMMIT", MsgPing: "PING", MsgRequest: "REQUEST", MsgSync: "SYNC",
	MsgSyncReply: "SYNCREPLY", MsgPeerLost: "PEERLOST",
}

func (t MsgType) String() string {
	if n, ok := msgNames[t]; ok {
		return n
	}
	return fmt.Sprintf("MsgType(%d)", uint8(t))
}

// SyncMode is how a leader brings a follower's history level with its own.
type SyncMode uint8

const (
	SyncDiff  SyncMode = iota + 1 // follower's log is a prefix: send what follows Zxid
	SyncTrunc                     // follower has extra entries: cut after Zxid, then send what follows
	SyncSnap                      // follower is too far behind: send a snapshot, then what follows it
)

func (m SyncMode) String() string {
	switch m {
	case SyncDiff:
		return "DIFF"
	case SyncTrunc:
		return "TRUNC"
	case SyncSnap:
		return "SNAP"
	}
	return "NONE"
}

// Message is the one envelope of every protocol message; which fields matter
// depends on Type (the shape of etcd's raftpb.Message). Every message between
// a leader and a follower carries the follower's Session, a nonce the follower
// draws each time it starts following, so that messages of an earlier attempt
// or an earlier incarnation of the follower are recognised and dropped.
type Message struct {
	Type     MsgType
	From, To uint64
	Epoch    uint32 // the epoch the message belongs to
	Session  uint64

	// Election.
	Round uint64 // election round; in PING/ACK the leader's heartbeat round
	State Role   // the sender's role
	Vote  Vote

	// Discovery: the follower's durable state.
	AcceptedEpoch uint32
	CurrentEpoch  uint32
	LastZxid      Zxid // NEWLEADER: where the history it starts ends (the rest follows as PROPOSE)
	Counted       bool // ACKEPOCH: counts towards establishing the epoch
	NonVoting     bool // ACKEPOCH: the follower promised a newer epoch and must not vote in this one
	Established   bool // NEWEPOCH: the leader has already established the epoch
	Active        bool // NEWLEADER, PING: the leader is broadcasting

	// Synchronization and broadcast.
	Mode     SyncMode
	Zxid     Zxid // DIFF/TRUNC point, PROPOSE's predecessor, ACK'd, committed, or sync point
	Commit   Zxid // NEWLEADER, PING: the leader's commit point
	Snapshot *Snapshot
	Entries  []Entry // NEWLEADER, PROPOSE; REQUEST carries Seq and Data only
	Seq      uint64  // ACKLD, ACK: first sequence number of the follower's requests in this attempt; SYNC, SYNCREPLY: the sync's number
	ReqSeq   uint64  // SYNC: number of the follower's last Propose before the sync; the leader answers once it ordered it
}

func (m Message) String() string {
	return fmt.Sprintf("%s %d→%d e=%d z=%s n=%d", m.Type, m.From, m.To, m.Epoch, m.Zxid, len(m.Entries))
}
