package server

// A session that moves to another server at once, before that server has
// applied its creation, against a 3-peer ZooKeeper 3.8 (a differential
// review's script).

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"zablab/internal/realzk"

	"zablab/solutions/aufgabe5"
)

// earlyMoveScript opens rounds sessions on the leader and at once
// reconnects each, with the last zxid 0 (the client has had no reply
// yet), on a follower: a client whose first server failed right after
// the handshake. It counts the answers by kind.
func earlyMoveScript(t *testing.T, addrs []string, rounds int) []string {
	leader := slices.IndexFunc(addrs, func(a string) bool {
		return strings.Contains(realzk.FourLetter(a, "srvr"), "Mode: leader")
	})
	if leader < 0 {
		t.Fatalf("no server of %v says it leads", addrs)
	}
	answers := map[string]int{}
	for i := range rounds {
		a := dialAddr(t, addrs[leader])
		_, sess, pw := a.connect(0, make([]byte, 16), 10000)
		b := dialAddr(t, addrs[(leader+1+i%2)%len(addrs)])
		d, _, _ := describeConnect(b, sess, pw, 10000, 0)
		answers[d[strings.Index(d, ", ")+2:]]++
		a.nc.Close()
		b.nc.Close()
	}
	var out []string
	for k, n := range answers {
		out = append(out, fmt.Sprintf("%s: %d of %d", k, n, rounds))
	}
	slices.Sort(out)
	return out
}

// TestEarlyMoveKeepsTheSessionAsZooKeeper: a ZooKeeper follower that does
// not know a session yet asks the leader, so a live session is never
// answered expired. Ours answered from the replica's own applied state:
// a reconnect to a replica that had not yet applied the session's
// creation told the client its session had expired (timeout 0, session 0)
// while the session lived on with its ephemerals until its timeout.
func TestEarlyMoveKeepsTheSessionAsZooKeeper(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two 3-server ensembles")
	}
	const rounds = 100
	e := startEnsemble(t, 3, aufgabe5.New)
	got := earlyMoveScript(t, e.addrs, rounds)
	want := earlyMoveScript(t, realzk.StartEnsembleT(t, 3), rounds)
	againstZooKeeper(t, want, got, nil)
}
