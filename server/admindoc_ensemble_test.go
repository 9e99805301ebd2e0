package server

import (
	"testing"

	"zablab/solutions/aufgabe5"
)

// The admin API documentation test also reads a 3-peer ensemble's leader
// and a follower (this file imports the reference, so the handout, which
// leaves it out, still compiles TestAdminAPIDocumented).
func init() {
	adminDocPeers = func(t *testing.T) map[string]*Server {
		e := startEnsemble(t, 3, aufgabe5.New)
		out := map[string]*Server{}
		for _, s := range e.srv {
			if s.adminLeader()["is_leader"] == true {
				out["an ensemble's leader"] = s
			} else {
				out["an ensemble's follower"] = s
			}
		}
		if len(out) != 2 {
			t.Fatalf("a 3-peer ensemble without both a leader and a follower: %v", out)
		}
		return out
	}
}
