package core

// Role is what the application is told: whether the peer looks for a
// leader, follows one, or leads.
type Role uint8

const (
	Looking Role = iota
	Following
	Leading
)

func (r Role) String() string {
	switch r {
	case Looking:
		return "LOOKING"
	case Following:
		return "FOLLOWING"
	case Leading:
		return "LEADING"
	}
	return "UNKNOWN"
}

// Phase is where a peer stands in the protocol of the Zab paper. A peer in
// Looking role is always in Election.
type Phase uint8

const (
	Election Phase = iota
	Discovery
	Synchronization
	Broadcast
)

func (p Phase) String() string {
	switch p {
	case Election:
		return "election"
	case Discovery:
		return "discovery"
	case Synchronization:
		return "synchronization"
	case Broadcast:
		return "broadcast"
	}
	return "unknown"
}
