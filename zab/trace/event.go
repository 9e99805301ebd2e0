package trace

import (
	"fmt"
	"strconv"
	"strings"

	"zablab/zab/core"
)

// Kind names what an Event records.
type Kind string

// The kinds of events. A peer's events are numbered (N) in the order they
// happened on it; the world's events (Peer 0: the simulator's network and
// checker) stand between everybody's.
const (
	KindStart     Kind = "start"     // the peer (re)started: Zxid its last logged, Epoch its currentEpoch
	KindStop      Kind = "stop"      // the peer shut down cleanly (Text: why it had stopped by itself, if so)
	KindCrash     Kind = "crash"     // the peer's process died: recorded by the simulator, inferred by Merge
	KindPause     Kind = "pause"     // the peer's process is stopped for a while (Text: until when)
	KindState     Kind = "state"     // role, phase, epoch or leader changed
	KindSend      Kind = "send"      // Msg left for Msg.To
	KindRecv      Kind = "recv"      // Msg arrived from Msg.From
	KindDrop      Kind = "drop"      // Msg was lost (Text: why)
	KindPropose   Kind = "propose"   // the application called Propose (Count: its sequence number)
	KindAppend    Kind = "append"    // Count entries Zxid..Last were written to the log
	KindTruncate  Kind = "truncate"  // the log was cut after Zxid
	KindSnapshot  Kind = "snapshot"  // a snapshot at Zxid was taken or installed
	KindDeliver   Kind = "deliver"   // the application got the message Zxid
	KindRestore   Kind = "restore"   // the application's state was replaced by the snapshot at Zxid
	KindNet       Kind = "net"       // the network changed: a partition, a heal (Text says which)
	KindViolation Kind = "violation" // an invariant broke (Text: which and why; Cause: the events that broke it)
	KindFull      Kind = "full"      // the trace file reached its size limit: nothing after this was written
)

// Event is one thing that happened on a peer (or, with Peer 0, to the
// whole simulated world). Which fields matter depends on Kind.
type Event struct {
	Peer uint64 `json:"p,omitempty"` // 0: the world (simulator only)
	Inc  uint64 `json:"i,omitempty"` // the peer's incarnation: a new one at every start
	N    uint64 `json:"n,omitempty"` // the event's number within its incarnation, from 1
	// Time is the peer's clock: simulated milliseconds, or Unix
	// nanoseconds in a real run. Merge orders by messages, not by Time;
	// Time only places events that the messages leave unordered.
	Time  int64  `json:"t"`
	Kind  Kind   `json:"k"`
	Role  string `json:"role,omitempty"`
	Phase string `json:"phase,omitempty"`
	Epoch uint32 `json:"epoch,omitempty"`
	// Leader is the peer this one follows or leads as (state); 0 while looking.
	Leader uint64 `json:"leader,omitempty"`
	Zxid   Zxid   `json:"zxid,omitempty"`
	Last   Zxid   `json:"last,omitempty"`
	Count  uint64 `json:"count,omitempty"`
	Msg    *Msg   `json:"m,omitempty"`
	Text   string `json:"x,omitempty"`
	Cause  []Ref  `json:"cause,omitempty"`
	// Lamport is the event's Lamport clock, set by Merge: larger
	// than that of every event before it on its peer and than the send of
	// a message it receives.
	Lamport uint64 `json:"lc,omitempty"`
}

// Ref names one event: its peer, incarnation and number.
type Ref struct {
	Peer uint64 `json:"p"`
	Inc  uint64 `json:"i"`
	N    uint64 `json:"n"`
}

// Ref returns the event's name.
func (e *Event) Ref() Ref { return Ref{Peer: e.Peer, Inc: e.Inc, N: e.N} }

// Msg is a protocol message as a trace records it: its identity and the
// fields a reader needs, not its payload.
type Msg struct {
	// ID links the send of a message to its receipts and its drop: the
	// simulator numbers every message; Merge numbers the sends of real
	// traces and gives a receipt the ID of the send it matched.
	ID uint64 `json:"id,omitempty"`
	// Link is the sender's count of messages to To in this incarnation:
	// (From, To, Link) names a send.
	Link uint64 `json:"l,omitempty"`
	// Hash is a fingerprint of every field of the message: a receipt
	// matches a send on the same link with the same Hash.
	Hash    uint64 `json:"h,omitempty"`
	Type    string `json:"type"`
	From    uint64 `json:"from"`
	To      uint64 `json:"to"`
	Epoch   uint32 `json:"epoch,omitempty"`
	Round   uint64 `json:"round,omitempty"`
	State   string `json:"state,omitempty"` // VOTE: the sender's role
	Vote    *Vote  `json:"vote,omitempty"`
	Zxid    Zxid   `json:"zxid,omitempty"`
	Commit  Zxid   `json:"commit,omitempty"`
	Mode    string `json:"mode,omitempty"` // NEWLEADER: DIFF, TRUNC or SNAP
	Entries uint64 `json:"entries,omitempty"`
	First   Zxid   `json:"first,omitempty"` // the first and last entry carried
	LastE   Zxid   `json:"laste,omitempty"`
	Snap    Zxid   `json:"snap,omitempty"` // SNAP: the snapshot's zxid
	// Discovery: the follower's epochs and last zxid.
	Accepted uint32 `json:"acc,omitempty"`
	Current  uint32 `json:"cur,omitempty"`
	LastZxid Zxid   `json:"lastzxid,omitempty"`
	Seq      uint64 `json:"seq,omitempty"`
	Flags    string `json:"flags,omitempty"` // counted, nonvoting, established, active
}

// Vote is an election vote: the candidate, its epoch and its last zxid.
type Vote struct {
	Leader uint64 `json:"leader"`
	Epoch  uint32 `json:"epoch"`
	Zxid   Zxid   `json:"zxid"`
}

// Zxid is a core.Zxid that a trace writes as ZooKeeper's logs do (0x…),
// so a reader of the file and of the page sees the same names.
type Zxid uint64

func (z Zxid) String() string { return core.Zxid(z).String() }

// MarshalText writes 0x followed by hex digits.
func (z Zxid) MarshalText() ([]byte, error) { return []byte(z.String()), nil }

// UnmarshalText reads what MarshalText wrote.
func (z *Zxid) UnmarshalText(b []byte) error {
	s, ok := strings.CutPrefix(string(b), "0x")
	if !ok {
		return fmt.Errorf("zxid %q does not start with 0x", b)
	}
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		return fmt.Errorf("zxid %q: %w", b, err)
	}
	*z = Zxid(v)
	return nil
}

// Label is the message's name in a picture: its type, with the sync mode
// for NEWLEADER ("NEWLEADER/DIFF") and ZooKeeper's name where it differs.
func (m *Msg) Label() string {
	switch {
	case m.Type == "NEWLEADER" && m.Mode != "":
		return "NEWLEADER/" + m.Mode
	case m.Type == "CEPOCH":
		return "CEPOCH (FOLLOWERINFO)"
	case m.Type == "NEWEPOCH":
		return "NEWEPOCH (LEADERINFO)"
	case m.Type == "COMMITLD":
		return "COMMITLD (UPTODATE)"
	}
	return m.Type
}

// MsgOf records m. Its Hash covers every field that travels, so two
// messages with the same Hash on one link are, for a reader, the same.
func MsgOf(m *core.Message) *Msg {
	t := &Msg{Type: m.Type.String(), From: m.From, To: m.To, Epoch: m.Epoch, Round: m.Round,
		Zxid: Zxid(m.Zxid), Commit: Zxid(m.Commit), Seq: m.Seq, Hash: hashOf(m)}
	switch m.Type {
	case core.MsgVote:
		t.State = m.State.String()
		t.Vote = &Vote{Leader: m.Vote.Leader, Epoch: m.Vote.Epoch, Zxid: Zxid(m.Vote.Zxid)}
	case core.MsgCEpoch, core.MsgAckEpoch:
		t.Accepted, t.Current, t.LastZxid = m.AcceptedEpoch, m.CurrentEpoch, Zxid(m.LastZxid)
	case core.MsgNewLeader:
		t.Mode = m.Mode.String()
	}
	if n := len(m.Entries); n > 0 {
		t.Entries, t.First, t.LastE = uint64(n), Zxid(m.Entries[0].Zxid), Zxid(m.Entries[n-1].Zxid)
	}
	if m.Snapshot != nil {
		t.Snap = Zxid(m.Snapshot.Meta.Zxid)
	}
	t.Flags = flagsOf(m)
	return t
}

func flagsOf(m *core.Message) string {
	var f []string
	for _, b := range [...]struct {
		on   bool
		name string
	}{{m.Counted, "counted"}, {m.NonVoting, "nonvoting"}, {m.Established, "established"}, {m.Active, "active"}} {
		if b.on {
			f = append(f, b.name)
		}
	}
	return strings.Join(f, ",")
}

// hashOf is FNV-1a over the message's fields and its entries' identities.
func hashOf(m *core.Message) uint64 {
	h := uint64(14695981039346656037)
	mix := func(v uint64) {
		for i := 0; i < 8; i++ {
			h ^= v & 0xff
			h *= 1099511628211
			v >>= 8
		}
	}
	for _, v := range [...]uint64{uint64(m.Type), m.From, m.To, uint64(m.Epoch), m.Session, m.Round,
		uint64(m.State), m.Vote.Leader, uint64(m.Vote.Epoch), uint64(m.Vote.Zxid), uint64(m.AcceptedEpoch),
		uint64(m.CurrentEpoch), uint64(m.LastZxid), uint64(m.Mode), uint64(m.Zxid), uint64(m.Commit),
		m.Seq, m.ReqSeq, uint64(len(m.Entries))} {
		mix(v)
	}
	for i := range m.Entries {
		mix(uint64(m.Entries[i].Zxid))
		mix(uint64(m.Entries[i].Timestamp))
	}
	if m.Snapshot != nil {
		mix(uint64(m.Snapshot.Meta.Zxid))
	}
	if h == 0 {
		h = 1 // 0 means "no hash"
	}
	return h
}
