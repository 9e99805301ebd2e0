package core

import "slices"

// Ready is everything the core wants done after a batch of Tick, Step,
// Propose and Sync calls. The runtime must handle its parts in this order:
//
//  1. persist, then sync to disk: Snapshot, then Truncate, then Entries, then
//     Stable. This is the persistence rule of Zab: a follower's ACK, ACKEPOCH
//     and ACKLD leave only after the state they vouch for is durable.
//  2. send Messages. Messages of type PROPOSE, COMMIT and PING vouch for
//     nothing on the sender's disk and may be sent before step 1 finishes.
//  3. run Events, in order, on the application's callback goroutine. A
//     Ready without Snapshot, Truncate and Stable (broadcast) may run them
//     before step 1: they deliver only what a quorum's durable ACKs
//     committed before this Ready.
//  4. call Advance with the same Ready.
//
// A broadcast Ready taken while the core is in phase Broadcast may be
// pipelined: the runtime takes further Readys before its fsync is done,
// sending their early messages unless an older message to the same peer
// still waits. Its late messages and its Advance then follow, in order,
// once it is durable; any other Ready is carried out only after every
// pipelined one is (durableLast counts on a log that is all on disk).
type Ready struct {
	// Snapshot, when set, replaces the whole history up to Snapshot.Meta.Zxid:
	// write it durably; afterwards no log entry at or below its zxid matters.
	Snapshot *Snapshot
	// Truncate, when set, drops every log entry above *Truncate.
	Truncate *Zxid
	// Entries are appended to the log after truncation.
	Entries []Entry
	// Stable, when set, is the new acceptedEpoch and currentEpoch.
	Stable *StableState
	// Messages to send; order per destination matters.
	Messages []Message
	// Events for the application, in the order they happened.
	Events []Event
}

// StableState is the part of the protocol state that is not in the log.
type StableState struct {
	AcceptedEpoch uint32 // the last epoch this peer promised (NEWEPOCH accepted)
	CurrentEpoch  uint32 // the last epoch whose history this peer took (NEWLEADER accepted)
}

// EventKind says which callback an Event stands for.
type EventKind uint8

const (
	EventStatus  EventKind = iota + 1 // Status(Role, Leader)
	EventRestore                      // SetState(Snapshot)
	EventDeliver                      // Deliver(Entry)
	EventSync                         // DeliverSync(Seq at Zxid)
)

// Event is one application callback.
type Event struct {
	Kind     EventKind
	Role     Role
	Leader   uint64 // id of the leader with EventStatus; 0 while Looking
	Snapshot *Snapshot
	Entry    Entry
	Seq      uint64 // EventSync: the number Sync returned
	Zxid     Zxid   // EventSync: everything up to here was delivered first
}

// IsEmpty reports whether the Ready asks for nothing.
func (rd *Ready) IsEmpty() bool {
	return rd.Snapshot == nil && rd.Truncate == nil && len(rd.Entries) == 0 &&
		rd.Stable == nil && len(rd.Messages) == 0 && len(rd.Events) == 0
}

// AppendsOnly reports whether rd changes the log only by appending: no
// snapshot, truncation or new epoch. Its callbacks need not wait for its
// disk write (they deliver what was committed before it), and in phase
// Broadcast its disk write may be pipelined (see Ready).
func (rd *Ready) AppendsOnly() bool {
	return rd.Snapshot == nil && rd.Truncate == nil && rd.Stable == nil
}

// MayLeaveEarly reports whether m may be sent before the Ready's disk write
// finishes: PROPOSE, COMMIT and PING vouch for nothing on the sender's disk.
func MayLeaveEarly(m Message) bool {
	return m.Type == MsgPropose || m.Type == MsgCommit || m.Type == MsgPing
}

// Splitter divides a Ready's messages into those that may leave before the
// disk write and those that must wait, keeping the order per destination:
// once a message to a peer must wait, every later one to that peer waits
// too. The runtime and the simulator share it, so the simulator sends early
// exactly what the runtime does. Its buffers are reused by the next Split.
type Splitter struct {
	now, later []Message
	held       []uint64
}

// Split returns the early and the late messages of ms.
func (s *Splitter) Split(ms []Message) (now, later []Message) {
	return s.SplitBehind(ms, nil)
}

// Held counts, per destination, the late messages of pipelined Readys that
// still wait for their disk write.
type Held map[uint64]int

// Add counts ms as held.
func (h Held) Add(ms []Message) {
	for i := range ms {
		h[ms[i].To]++
	}
}

// Release forgets ms, which have been sent.
func (h Held) Release(ms []Message) {
	for i := range ms {
		if h[ms[i].To]--; h[ms[i].To] <= 0 {
			delete(h, ms[i].To)
		}
	}
}

// SplitBehind is Split for a Ready pipelined behind others: a message to a
// peer that held counts waits too, so the order per destination holds
// across Readys.
func (s *Splitter) SplitBehind(ms []Message, held Held) (now, later []Message) {
	s.now, s.later, s.held = s.now[:0], s.later[:0], s.held[:0]
	for _, m := range ms {
		if MayLeaveEarly(m) && held[m.To] == 0 && !slices.Contains(s.held, m.To) {
			s.now = append(s.now, m)
			continue
		}
		if !slices.Contains(s.held, m.To) {
			s.held = append(s.held, m.To) // a handful of peers: a slice beats a map
		}
		s.later = append(s.later, m)
	}
	return s.now, s.later
}
