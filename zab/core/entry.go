package core

// Entry is one proposal in a peer's history.
type Entry struct {
	Zxid Zxid
	// Timestamp is the leader's clock (Unix nanoseconds) when it ordered the
	// proposal. Invariant: strictly increasing along every history.
	Timestamp int64
	// Proposer is the id of the peer whose application proposed the message,
	// Incarnation the run of that peer (a new one at every start) and Seq the
	// run's sequence number for it: the three name one request for ever, so
	// the proposer can match a delivery to its request even across restarts.
	Proposer    uint64
	Incarnation uint64
	Seq         uint64
	Data        []byte
}

// SnapshotMeta names the last transaction a snapshot contains: its zxid and
// timestamp, and who proposed it (zero where unknown, as for a snapshot
// the core made by compacting its log).
type SnapshotMeta struct {
	Zxid        Zxid
	Timestamp   int64
	Proposer    uint64
	Incarnation uint64
	Seq         uint64
}

// Snapshot is the application's state after delivering every transaction up
// to and including Meta.Zxid. An empty Data stands for the initial state.
type Snapshot struct {
	Meta SnapshotMeta
	Data []byte
}

// SnapshotSource hands the core the newest durable snapshot, needed when the
// leader brings a follower level by SNAP. The core only reads it.
type SnapshotSource interface {
	LatestSnapshot() (Snapshot, error)
}

// LogSource reads the durable log: the entries in (after, upto], in order.
// The core reads it to bring a follower level with entries whose data it
// dropped from memory; storage.Log is one.
type LogSource interface {
	EntriesBetween(after, upto Zxid) ([]Entry, error)
}

// Vote is a peer's candidate in leader election. Votes are ordered by the
// candidate's current epoch, then its last zxid, then its id: the most up to
// date peer wins and ties go to the higher id.
type Vote struct {
	Leader uint64
	Epoch  uint32
	Zxid   Zxid
}

// Less reports whether v is a worse candidate than w.
func (v Vote) Less(w Vote) bool {
	if v.Epoch != w.Epoch {
		return v.Epoch < w.Epoch
	}
	if v.Zxid != w.Zxid {
		return v.Zxid < w.Zxid
	}
	return v.Leader < w.Leader
}
