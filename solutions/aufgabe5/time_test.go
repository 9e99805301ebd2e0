package aufgabe5

import (
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// TestTimestampsFromTheLeader: with clocks skewed by ±5 s, every replica
// stores the same ctime and mtime, close to the leader's clock, and times
// do not go back when a leader with a slower clock takes over (A5.4).
func TestTimestampsFromTheLeader(t *testing.T) {
	skews := []time.Duration{-5 * time.Second, 0, 5 * time.Second}
	e := start(t, 3, svctest.Options{Skews: skews})
	leader := e.Leader()
	s := e.Session(t, 1, time.Minute)
	var last int64
	for i := 1; i <= 3; i++ {
		si := e.Session(t, i, time.Minute)
		r := mustOK(t, "create", create(e, t, i, si, "/t"+string(rune('0'+i)), "", mwzookeeper.Persistent))
		lt := e.Host(leader).Now().UnixMilli()
		if d := lt - r.Stat.Ctime; d < 0 || d > 2000 {
			t.Fatalf("create on replica %d: ctime %d is %d ms from leader %d's clock", i, r.Stat.Ctime, d, leader)
		}
		last = max(last, r.Stat.Ctime)
	}
	waitSame(t, e) // the snapshot holds every ctime and mtime
	// The fastest clock leads now; the next leader's clock is slower.
	for i := 1; i <= 3; i++ {
		e.Host(i).SetSkew(-5 * time.Second)
	}
	e.Host(leader).SetSkew(5 * time.Second)
	r := mustOK(t, "setData", e.Do(t, 1, &req{Op: mwzookeeper.OpSetData, Session: s, Path: "/t1", Version: -1}))
	last = max(last, r.Stat.Mtime)
	if err := e.Stop(leader); err != nil {
		t.Fatal(err)
	}
	other := e.WaitNewLeader(t, leader)
	s2 := e.Session(t, other, time.Minute)
	r = mustOK(t, "create after the leader change", create(e, t, other, s2, "/after", "", mwzookeeper.Persistent))
	if r.Stat.Ctime < last {
		t.Fatalf("ctime went back across the leader change: %d after %d", r.Stat.Ctime, last)
	}
	waitSame(t, e)
}
