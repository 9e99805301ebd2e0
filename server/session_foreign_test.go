package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"zablab/solutions/aufgabe5"
)

// TestSessionOfAnotherEnsembleIsExpired: a client that had no reply but
// its connect's (go-zk then sends last zxid 0) reconnects to an ensemble
// that never created its session: the old ensemble's data was wiped and
// a fresh one started on the same addresses. ZooKeeper's follower asks its
// leader, which does not know the session: expired, and the client opens
// a new one. Ours once answered ConnectionLoss (closed the connection)
// while the id lay in this replica's epoch or the next and above its last
// zxid, so against an idle ensemble the client reconnected with that
// session for ever; now the replica syncs first and then answers expired.
func TestSessionOfAnotherEnsembleIsExpired(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two ensembles")
	}
	old := startEnsemble(t, 1, aufgabe5.New)
	var sess int64
	var pw []byte
	for i := range 8 { // every session's creation is a write: the last id is well ahead
		a := dialAddr(t, old.addrs[0])
		_, sess, pw = a.connect(0, make([]byte, 16), 10000)
		if i == 0 {
			a.createRaw(1, "/x", 0)
		}
		a.nc.Close()
	}
	fresh := startEnsemble(t, 1, aufgabe5.New)
	var answers []string
	pace := time.NewTicker(100 * time.Millisecond) // a client's reconnect pace
	defer pace.Stop()
	start, attempts := time.Now(), 10
	for range attempts {
		b := dialAddr(t, fresh.addrs[0])
		d, _, _ := describeConnect(b, sess, pw, 10000, 0)
		b.nc.Close()
		if strings.Contains(d, "session 0") {
			return // expired: the client can open a new session
		}
		if len(answers) == 0 || answers[len(answers)-1] != d {
			answers = append(answers, d)
		}
		<-pace.C
	}
	t.Fatalf("session %#x, unknown to the fresh ensemble, was never answered expired in %d reconnects over %s "+
		"(last zxid 0): %s", sess, attempts, time.Since(start).Round(time.Second), fmt.Sprint(answers))
}
