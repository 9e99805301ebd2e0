package aufgabe5

import (
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

// TestWriteFromTheOldServerAfterTheSessionMoved: a client writes
// W1 on replica 1, its link to replica 1 stalls (W1 still sits in replica
// 1's socket buffer), it reconnects on replica 2 and writes W2 there,
// answered. Replica 1 then reads W1 from the old, half-open connection
// (server.bind only closes an older connection on the same server) and
// submits it. ZooKeeper's leader tracks the session's owner (revalidate on
// reconnect, SessionTracker.checkSession in PrepRequestProcessor) and fails
// W1 with SessionMovedException (-118), so the session's writes apply in
// the client's order; so does this service (the owner is replicated). (Found
// in review: W1 was applied after W2, so /x ended with W1's data although
// the client sent W2 later.)
func TestWriteFromTheOldServerAfterTheSessionMoved(t *testing.T) {
	e := start(t, 3, svctest.Options{})
	c := e.Do(t, 1, &req{Op: mwzookeeper.OpCreateSession, Timeout: 10000})
	mustOK(t, "session", c)
	s := c.Session
	mustOK(t, "create", create(e, t, 1, s, "/x", "0", mwzookeeper.Persistent))
	wait.For(t, "replica 2 caught up", 10*time.Second, func() bool { return zxidOf(e, 2) >= zxidOf(e, 1) })
	mustOK(t, "reconnect on replica 2", e.Do(t, 2, &req{Op: mwzookeeper.OpReconnect, Session: s, Password: c.Password, LastZxid: zxidOf(e, 1)}))
	mustOK(t, "W2 on replica 2", e.Do(t, 2, &req{Op: mwzookeeper.OpSetData, Session: s, Path: "/x", Data: []byte("W2"), Version: -1}))
	// W1, sent before the client moved, reaches replica 1 only now.
	r := e.Do(t, 1, &req{Op: mwzookeeper.OpSetData, Session: s, Path: "/x", Data: []byte("W1"), Version: -1})
	if r.Err == nil {
		mustOK(t, "sync", e.Do(t, 2, &req{Op: mwzookeeper.OpSync, Session: s, Path: "/x"}))
		d := mustOK(t, "getData", e.Do(t, 2, &req{Op: mwzookeeper.OpGetData, Session: s, Path: "/x"}))
		t.Fatalf("W1 from the session's old server was applied after the session moved to replica 2 and wrote W2 there (ZooKeeper: ErrSessionMoved); /x is now %q", d.Data)
	}
	mustErr(t, "W1 from the old server", r, mwzookeeper.ErrSessionMoved)
}
