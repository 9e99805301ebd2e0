package aufgabe5

import (
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

// ownerOn returns session id's owner as replica i has applied it (-1:
// replica i does not know the session).
func ownerOn(e *svctest.Ensemble, i int, id int64) int64 {
	s := e.Service(i).(*Service)
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess := s.sessions[id]; sess != nil {
		return int64(sess.owner)
	}
	return -1
}

// TestAbandonedReconnectDoesNotMoveTheSessionBack: a client reconnects to
// a follower that has not applied its session's creation yet; that
// replica syncs first (reconnectAhead). The sync is slow (the replica is
// busy applying), the client gives up on it, as go-zookeeper does after
// its connect timeout, and reconnects to the third replica, which moves
// the session there and answers it. When the slow replica's sync is
// finally delivered, the reconnect nobody waits for any more must not
// move the session back: the client's writes through the replica it is
// connected to would fail SessionMoved from then on. (The server checks
// that a client is still there before it asks the Service again, so that
// a session never moves behind the client's back; the sync's answer comes
// with no such check.)
func TestAbandonedReconnectDoesNotMoveTheSessionBack(t *testing.T) {
	e := start(t, 3, svctest.Options{TickTime: 200 * time.Millisecond})
	var l int
	wait.For(t, "a leader", 10*time.Second, func() bool { l = e.Leader(); return l != 0 })
	slowID, otherID := l%3+1, (l+1)%3+1
	slow := e.Service(slowID).(*Service)

	// The slow replica's apply lock is held: it cannot apply the
	// session's creation, nor deliver the sync, until it is released.
	slow.mu.Lock()
	locked := true
	defer func() {
		if locked {
			slow.mu.Unlock()
		}
	}()
	c := e.Do(t, l, &req{Op: mwzookeeper.OpCreateSession, Timeout: 60000})
	mustOK(t, "createSession on the leader", c)
	abandoned := make(chan *resp, 1)
	// What submitLocal does for a reconnect, with the apply lock held.
	if !slow.reconnectAhead(&req{Op: mwzookeeper.OpReconnect, Session: c.Session, Password: c.Password},
		func(r *resp) { abandoned <- r.Clone() }) {
		t.Fatalf("replica %d did not sync first for session %#x it has not applied (last zxid %#x)",
			slowID, c.Session, slow.lastZxid)
	}

	// The client gives up on the slow replica and reconnects elsewhere.
	wait.For(t, "the other follower caught up", 10*time.Second, func() bool { return zxidOf(e, otherID) >= c.Zxid })
	mustOK(t, "reconnect on the other follower", e.Do(t, otherID, &req{Op: mwzookeeper.OpReconnect,
		Session: c.Session, Password: c.Password, LastZxid: c.Zxid}))
	wait.For(t, "the move to the other follower applied on the leader", 10*time.Second, func() bool {
		return ownerOn(e, l, c.Session) == int64(otherID)
	})
	mustOK(t, "write through the other follower", create(e, t, otherID, c.Session, "/a", "", mwzookeeper.Persistent))

	slow.mu.Unlock() // the slow replica catches up; its sync is delivered
	locked = false
	select {
	case r := <-abandoned:
		t.Logf("the abandoned reconnect on replica %d was answered: %v", slowID, r.Err)
	case <-time.After(10 * time.Second):
		t.Fatalf("replica %d never answered the reconnect of session %#x", slowID, c.Session)
	}
	// Whatever the slow replica proposed before is committed after its
	// sync, and applied on the other follower after that one's.
	mustOK(t, "sync on the slow replica", e.Do(t, slowID, &req{Op: mwzookeeper.OpSync, Path: "/"}))
	mustOK(t, "sync on the other follower", e.Do(t, otherID, &req{Op: mwzookeeper.OpSync, Session: c.Session, Path: "/"}))
	r := create(e, t, otherID, c.Session, "/b", "", mwzookeeper.Persistent)
	if r.Err != nil {
		t.Fatalf("session %#x, last reconnected on replica %d, can no longer write there (%v): "+
			"replica %d's reconnect, which the client had abandoned, moved it back (owner now %d)",
			c.Session, otherID, r.Err, slowID, ownerOn(e, l, c.Session))
	}
}
