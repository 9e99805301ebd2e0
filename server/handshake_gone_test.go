package server

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"zablab/internal/wait"
	mw "zablab/mwzookeeper"
	"zablab/solutions/aufgabe5"
)

// countingService wraps the reference Service and counts the reconnects
// it answers, by outcome.
type countingService struct {
	mw.Service
	lost, ok *atomic.Int64
}

func (c *countingService) Submit(req *mw.Request, reply func(*mw.Response)) {
	if req.Op != mw.OpReconnect {
		c.Service.Submit(req, reply)
		return
	}
	c.Service.Submit(req, func(r *mw.Response) {
		switch {
		case errors.Is(r.Err, mw.ErrConnectionLoss):
			c.lost.Add(1)
		case r.Err == nil:
			c.ok.Add(1)
		}
		reply(r)
	})
}

// TestRetriedReconnectStealsTheSessionFromItsLiveConnection: a client
// reconnects its session on server 1, which is behind the zxid the client
// saw, so the Service answers ConnectionLoss. Since e227f3e the server
// does not close but asks again for up to leaderWait (1 s, restarted at
// each leader change), not reading the socket meanwhile. The client's own
// connect timeout is shorter (the Java client: sessionTimeout / number of
// servers, e.g. 4000/5 = 800 ms), so it gives up, closes, and reconnects on
// server 2, where its session lives on and writes. When server 1 catches
// up, its retry, made for a client that is long gone, succeeds: the
// session's owner moves back to replica 1, and every write of the live
// client on server 2 now fails with SessionMoved. ZooKeeper (and this
// server before e227f3e) closes the handshake of a client that is ahead
// of the replica at once.
func TestRetriedReconnectStealsTheSessionFromItsLiveConnection(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-server ensemble")
	}
	var lost, ok atomic.Int64
	e := startEnsemble(t, 3, func() mw.Service {
		return &countingService{Service: aufgabe5.New(), lost: &lost, ok: &ok}
	})
	live := dialRaw(t, e.srv[1].Addr())
	_, id, pw := live.connect(0, make([]byte, 16), 10000)
	if id == 0 {
		t.Fatal("no session")
	}
	z, code := live.createRaw(1, "/x", 0)
	if code != 0 {
		t.Fatalf("create /x: code %d", code)
	}
	// The client has seen the next zxid (a write server 1 has not
	// applied yet) and tries server 1 first.
	gone := dialRaw(t, e.srv[0].Addr())
	gone.sendConnect(id, pw, 10000, z+1)
	wait.For(t, "server 1 to answer ConnectionLoss", 10*time.Second, func() bool { return lost.Load() >= 1 })
	gone.nc.Close() // the client's connect timeout: it gives up on server 1
	// ... and goes on with its session on server 2.
	if _, code := live.createRaw(2, "/y", 0); code != 0 {
		t.Fatalf("create /y on server 2: code %d", code)
	}
	wait.For(t, "server 1's retry to end", 10*time.Second, func() bool {
		return ok.Load() > 0 || numConns(e.srv[0]) == 0
	})
	if ok.Load() > 0 {
		t.Logf("server 1 reconnected session 0x%x for a client that had closed its connection", id)
	}
	// Give the owner change (if any) the time to be ordered: a sync-like
	// write round trip through server 2.
	for i := int32(3); i < 6; i++ {
		if _, code := live.createRaw(i, "/z"+string(rune('0'+i)), 0); code != 0 {
			t.Fatalf("write %d of the live client on server 2: code %d (%v), want 0: a handshake retried for a client that had gone moved the session away from its live connection",
				i, code, mw.CodeOf(mw.ErrSessionMoved) == mw.Code(code))
		}
	}
}
