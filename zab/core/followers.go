package core

// Follower is what a leader knows of one follower, for the operator's
// figures (synced followers, lag).
type Follower struct {
	ID     uint64
	Voting bool
	Synced bool // NEWLEADER acknowledged: it takes part in broadcast
	Match  Zxid // its log equals the leader's, durably, up to here
}

// Followers lists the followers of this leader's current attempt in id
// order; nil unless leading.
func (c *Core) Followers() []Follower {
	if c.role != Leading {
		return nil
	}
	out := make([]Follower, 0, len(c.ld.ids))
	for _, id := range c.ld.ids {
		p := c.ld.peers[id]
		out = append(out, Follower{ID: id, Voting: p.voting, Synced: p.synced, Match: p.match})
	}
	return out
}

// Lag is how many transactions a follower that matches up to match is
// behind last: the counter's distance within one epoch; across epochs,
// everything of last's epoch.
func Lag(last, match Zxid) uint64 {
	if match >= last {
		return 0
	}
	if match.Epoch() == last.Epoch() {
		return uint64(last.Counter() - match.Counter())
	}
	return uint64(last.Counter())
}
