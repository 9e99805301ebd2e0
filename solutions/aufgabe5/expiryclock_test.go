package aufgabe5

import (
	"fmt"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

// TestLeaderClockStepExpiresNoLiveSession: the leader's wall clock is
// stepped 30 s forward (NTP, an operator). A session that pings its
// follower every timeout/3 must survive: ZooKeeper's SessionTracker
// measures timeouts with a monotonic clock (ZOOKEEPER-1366), so a
// wall-clock step expires nobody. (Found in review: the leader compared
// its stepped clock with a replicated last activity and expired the live
// session at its next tick.)
func TestLeaderClockStepExpiresNoLiveSession(t *testing.T) {
	e := start(t, 3, svctest.Options{})
	f := follower(t, e)
	l := e.Leader()
	live := e.Session(t, f, 2*time.Second)
	mustOK(t, "create", create(e, t, f, live, "/live", "", mwzookeeper.Ephemeral))
	// Ping as ZooKeeper's clients do, every timeout/3; the leader's clock
	// is stepped 150 ms after the second ping (its liveness message is
	// applied by then).
	for i := 0; i < 5; i++ {
		r := e.Do(t, f, &req{Op: mwzookeeper.OpPing, Session: live})
		if r.Err != nil {
			t.Fatalf("ping %d of session %#x on replica %d: %v (leader %d's clock was stepped 30 s forward after ping 1)", i, live, f, r.Err, l)
		}
		if i == 1 {
			<-time.After(150 * time.Millisecond)
			e.Host(l).SetSkew(30 * time.Second)
			<-time.After(500 * time.Millisecond)
		} else {
			<-time.After(650 * time.Millisecond)
		}
	}
	if closed, expired := e.Host(f).Closed(live); closed {
		t.Fatalf("session %#x (timeout 2 s, pinging replica %d every 50 ms) closed (expired=%v) after leader %d's clock stepped 30 s forward",
			live, f, expired, l)
	}
}

// TestSilentSessionExpiresAfterFastClockLeaderDies: a leader whose clock
// runs 10 min ahead stamps every message; it dies and a replica with a
// correct clock leads. A silent session (its client is gone) must expire
// about one timeout after the new leader took over (a new leader grants a
// fresh timeout, no more). (Found in review: Zab keeps timestamps at
// max(now, last+1ns), so a replicated last activity stayed 10 min ahead
// of the new leader's clock, and the session and its ephemeral lived on.)
func TestSilentSessionExpiresAfterFastClockLeaderDies(t *testing.T) {
	e := start(t, 3, svctest.Options{})
	l := e.Leader()
	e.Host(l).SetSkew(10 * time.Minute) // before any session exists
	f := l%3 + 1
	s := e.Session(t, f, 1*time.Second)
	mustOK(t, "create", create(e, t, f, s, "/dead", "", mwzookeeper.Ephemeral))
	ephemeralEverywhere(t, e, s, "/dead")
	if err := e.Stop(l); err != nil {
		t.Fatal(err)
	}
	nl := e.WaitNewLeader(t, l)
	took := time.Now()
	// The client is gone: nothing pings s any more.
	what := fmt.Sprintf("silent session %#x (timeout 1 s) expired on replica %d after replica %d took over from fast-clock leader %d", s, f, nl, l)
	wait.For(t, what, 8*time.Second, func() bool { closed, _ := e.Host(f).Closed(s); return closed })
	t.Logf("expired %s after the new leader took over", time.Since(took).Round(time.Millisecond))
}
