package mwzookeeper

import "math"

// Containers and TTL nodes (beyond the sheet) are marked in their stat's
// EphemeralOwner, as ZooKeeper 3.8 marks them, so clients read the same
// stat: a container has the smallest int64, a TTL node 0xFF in the top
// byte and its TTL (ms) in the low 40 bits. An ordinary ephemeral has its
// session's id, a persistent node 0.
const (
	ContainerOwner int64 = math.MinInt64
	ttlMark        int64 = -1 << 56 // 0xFF00000000000000
	// MaxTTL is the longest TTL a node may have, in ms (40 bits).
	MaxTTL int64 = 1<<40 - 1
)

// TTLOwner is the EphemeralOwner of a node with the given TTL (ms).
func TTLOwner(ttl int64) int64 { return ttlMark | ttl&MaxTTL }

// NodeTTL returns the TTL of a node whose EphemeralOwner is owner, and
// whether it is a TTL node at all.
func NodeTTL(owner int64) (int64, bool) {
	if owner&ttlMark != ttlMark || owner == ContainerOwner {
		return 0, false
	}
	return owner & MaxTTL, true
}

// IsSessionOwner says whether owner is a session's id: the node is an
// ordinary ephemeral, gone with its session.
func IsSessionOwner(owner int64) bool {
	_, ttl := NodeTTL(owner)
	return owner != 0 && owner != ContainerOwner && !ttl
}
