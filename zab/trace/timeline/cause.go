package timeline

import (
	"slices"

	"zablab/zab/trace"
)

// causes returns the events that caused violation v, for highlighting:
// the events it names, and around them the chain that explains them. For
// a delivery: the message that carried the entry to the peer (PROPOSE,
// NEWLEADER with DIFF, TRUNC or SNAP), the one that released it (COMMIT,
// COMMITLD, a PING's commit point), their sends, and the leader's
// proposal of the entry; for the leader's own delivery (its commit), its
// proposal and the ACKs it counted. For a leader's state: the ACKEPOCHs that made
// its epoch established, and their sends.
func causes(evs []trace.Event, v int, ref map[trace.Ref]int) []int {
	set := map[int]bool{v: true}
	sendOf := map[uint64]int{}
	for i := range evs[:v] {
		if e := &evs[i]; e.Kind == trace.KindSend && e.Msg != nil && e.Msg.ID != 0 {
			if _, ok := sendOf[e.Msg.ID]; !ok {
				sendOf[e.Msg.ID] = i
			}
		}
	}
	withSend := func(r int) {
		if r < 0 {
			return
		}
		set[r] = true
		if s, ok := sendOf[evs[r].Msg.ID]; ok && evs[r].Msg.ID != 0 {
			set[s] = true
		}
	}
	for _, c := range evs[v].Cause {
		i, ok := ref[c]
		if !ok {
			continue
		}
		set[i] = true
		e := &evs[i]
		switch {
		case e.Kind == trace.KindDeliver && roleAt(evs, i, e.Peer) == "LEADING":
			// The leader's commit: its proposal, and the ACKs that counted.
			p := findAppend(evs, i, e.Peer, e.Zxid)
			if p >= 0 {
				set[p] = true
			}
			for j := i - 1; j > p && p >= 0; j-- {
				if m := evs[j].Msg; evs[j].Peer == e.Peer && evs[j].Kind == trace.KindRecv && m.Type == "ACK" && m.Zxid >= e.Zxid {
					withSend(j)
				}
			}
		case e.Kind == trace.KindDeliver:
			carrier := findBack(evs, i, e.Peer, func(m *trace.Msg) bool { return carries(m, e.Zxid) })
			withSend(carrier)
			withSend(findBack(evs, i, e.Peer, func(m *trace.Msg) bool { return releases(m, e.Zxid) }))
			if carrier >= 0 {
				if s, ok := sendOf[evs[carrier].Msg.ID]; ok {
					if p := findAppend(evs, s, evs[s].Peer, e.Zxid); p >= 0 {
						set[p] = true
					}
				}
			}
		case e.Kind == trace.KindState && e.Role == "LEADING":
			for j := i - 1; j >= 0 && !(evs[j].Peer == e.Peer && evs[j].Kind == trace.KindStart); j-- {
				if m := evs[j].Msg; evs[j].Peer == e.Peer && evs[j].Kind == trace.KindRecv &&
					m.Type == "ACKEPOCH" && m.Epoch == e.Epoch {
					withSend(j)
				}
			}
		}
	}
	out := make([]int, 0, len(set))
	for i := range set {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

// roleAt is peer's role at event i: its last state before i, "" while down.
func roleAt(evs []trace.Event, i int, peer uint64) string {
	for j := i - 1; j >= 0; j-- {
		if e := &evs[j]; e.Peer == peer {
			switch e.Kind {
			case trace.KindState:
				return e.Role
			case trace.KindCrash, trace.KindStop, trace.KindStart:
				return ""
			}
		}
	}
	return ""
}

// findBack finds the newest receipt on peer before event i whose message
// matches; -1 if none.
func findBack(evs []trace.Event, i int, peer uint64, match func(*trace.Msg) bool) int {
	for j := i - 1; j >= 0; j-- {
		if e := &evs[j]; e.Peer == peer && e.Kind == trace.KindRecv && e.Msg != nil && match(e.Msg) {
			return j
		}
	}
	return -1
}

// findAppend finds the newest append of z on peer before event i.
func findAppend(evs []trace.Event, i int, peer uint64, z trace.Zxid) int {
	for j := i - 1; j >= 0; j-- {
		if e := &evs[j]; e.Peer == peer && e.Kind == trace.KindAppend && e.Zxid <= z && z <= max(e.Last, e.Zxid) {
			return j
		}
	}
	return -1
}

// carries reports whether m brings the entry z to its receiver.
func carries(m *trace.Msg, z trace.Zxid) bool {
	switch m.Type {
	case "PROPOSE", "NEWLEADER":
		return m.Entries > 0 && m.First <= z && z <= m.LastE || m.Snap >= z && m.Snap != 0
	}
	return false
}

// releases reports whether m lets its receiver deliver z.
func releases(m *trace.Msg, z trace.Zxid) bool {
	switch m.Type {
	case "COMMIT", "COMMITLD":
		return m.Zxid >= z
	case "PING", "NEWLEADER":
		return m.Commit >= z
	}
	return false
}
