package aufgabe5

import (
	"errors"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

// ephemeralGone waits until no running replica has path, and each has
// told its host that session closed (expired as said).
func ephemeralGone(t *testing.T, e *svctest.Ensemble, s int64, path string, expired bool) {
	t.Helper()
	for i := 1; i <= e.N(); i++ {
		if e.Service(i) == nil {
			continue
		}
		wait.For(t, "session "+hex(s)+" closed on replica "+string(rune('0'+i)), 20*time.Second, func() bool {
			closed, exp := e.Host(i).Closed(s)
			return closed && exp == expired
		})
		svc := e.Service(i).(*Service)
		svc.mu.Lock()
		n := svc.tree.get(path)
		svc.mu.Unlock()
		if n != nil {
			t.Fatalf("replica %d still has ephemeral %s of session %#x", i, path, s)
		}
	}
}

func ephemeralEverywhere(t *testing.T, e *svctest.Ensemble, s int64, path string) {
	t.Helper()
	for i := 1; i <= e.N(); i++ {
		wait.For(t, path+" on replica "+string(rune('0'+i)), 10*time.Second, func() bool {
			svc := e.Service(i).(*Service)
			svc.mu.Lock()
			defer svc.mu.Unlock()
			n := svc.tree.get(path)
			return n != nil && n.stat.EphemeralOwner == s
		})
	}
}

// follower returns a running replica that does not lead.
func follower(t *testing.T, e *svctest.Ensemble) int {
	t.Helper()
	var l int
	wait.For(t, "a leader", 10*time.Second, func() bool { l = e.Leader(); return l != 0 })
	return l%e.N() + 1
}

func TestEphemeralsGoWhenTheSessionCloses(t *testing.T) {
	e := start(t, 3, svctest.Options{})
	s := e.Session(t, 2, time.Minute)
	mustOK(t, "create", create(e, t, 2, s, "/e", "", mwzookeeper.Ephemeral))
	ephemeralEverywhere(t, e, s, "/e")
	mustOK(t, "close", e.Do(t, 2, &req{Op: mwzookeeper.OpCloseSession, Session: s}))
	ephemeralGone(t, e, s, "/e", false)
	mustErr(t, "write after close", create(e, t, 2, s, "/x", "", mwzookeeper.Persistent), mwzookeeper.ErrSessionExpired)
	mustErr(t, "read after close", e.Do(t, 2, &req{Op: mwzookeeper.OpExists, Session: s, Path: "/"}), mwzookeeper.ErrSessionExpired)
}

// TestSessionsExpireUnlessActive: a session that pings a follower stays
// (its activity reaches the leader through liveness messages), a silent
// one expires with its ephemerals, on every replica.
func TestSessionsExpireUnlessActive(t *testing.T) {
	e := start(t, 3, svctest.Options{})
	f := follower(t, e)
	// 800 ms: a few ticks of slack for a loaded machine (liveness goes
	// out once per 50 ms tick).
	live := e.Session(t, f, 800*time.Millisecond)
	silent := e.Session(t, f, 800*time.Millisecond)
	mustOK(t, "create", create(e, t, f, live, "/live", "", mwzookeeper.Ephemeral))
	mustOK(t, "create", create(e, t, f, silent, "/silent", "", mwzookeeper.Ephemeral))
	deadline := time.Now().Add(2500 * time.Millisecond)
	for time.Now().Before(deadline) { // ping as a client would, bounded
		mustOK(t, "ping", e.Do(t, f, &req{Op: mwzookeeper.OpPing, Session: live}))
		<-time.After(50 * time.Millisecond)
	}
	ephemeralGone(t, e, silent, "/silent", true)
	if closed, _ := e.Host(f).Closed(live); closed {
		t.Fatalf("session %#x expired although it pinged replica %d", live, f)
	}
	ephemeralEverywhere(t, e, live, "/live")
}

// TestSessionExpiresWhenItsReplicaStops: the replica holding the
// connection goes; the others expire the session and drop its ephemerals.
func TestSessionExpiresWhenItsReplicaStops(t *testing.T) {
	e := start(t, 3, svctest.Options{})
	f := follower(t, e)
	s := e.Session(t, f, 300*time.Millisecond)
	mustOK(t, "create", create(e, t, f, s, "/gone", "", mwzookeeper.Ephemeral))
	ephemeralEverywhere(t, e, s, "/gone")
	if err := e.Stop(f); err != nil {
		t.Fatal(err)
	}
	ephemeralGone(t, e, s, "/gone", true)
}

func TestReconnect(t *testing.T) {
	e := start(t, 3, svctest.Options{})
	s := e.Session(t, 1, time.Minute)
	r := mustOK(t, "create", create(e, t, 1, s, "/r", "", mwzookeeper.Persistent))
	pw := e.Do(t, 1, &req{Op: mwzookeeper.OpCreateSession, Timeout: 5000})
	mustOK(t, "session", pw)
	wait.For(t, "the session on replica 3", 10*time.Second, func() bool { return zxidOf(e, 3) >= pw.Zxid })
	ok := mustOK(t, "reconnect", e.Do(t, 3, &req{Op: mwzookeeper.OpReconnect, Session: pw.Session, Password: pw.Password, LastZxid: pw.Zxid}))
	if ok.Session != pw.Session || string(ok.Password) != string(pw.Password) || ok.Timeout != 5000 {
		t.Fatalf("reconnect answered %+v", ok)
	}
	mustErr(t, "wrong password", e.Do(t, 3, &req{Op: mwzookeeper.OpReconnect, Session: pw.Session, Password: []byte("x")}), mwzookeeper.ErrSessionExpired)
	mustErr(t, "unknown", e.Do(t, 3, &req{Op: mwzookeeper.OpReconnect, Session: 12345, Password: pw.Password}), mwzookeeper.ErrSessionExpired)
	future := e.Do(t, 3, &req{Op: mwzookeeper.OpReconnect, Session: pw.Session, Password: pw.Password, LastZxid: r.Zxid + 1<<40})
	if !errors.Is(future.Err, mwzookeeper.ErrConnectionLoss) {
		t.Fatalf("reconnect of a client that saw a newer zxid: %v", future.Err)
	}
	// A replica behind the client may not know the session yet: it must
	// send the client elsewhere (ConnectionLoss), not expire the session.
	unknown := e.Do(t, 3, &req{Op: mwzookeeper.OpReconnect, Session: 12345, Password: pw.Password, LastZxid: r.Zxid + 1<<40})
	if !errors.Is(unknown.Err, mwzookeeper.ErrConnectionLoss) {
		t.Fatalf("reconnect with an unknown session and a newer zxid: %v, want ConnectionLoss", unknown.Err)
	}
}
