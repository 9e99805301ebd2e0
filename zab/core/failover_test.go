package core_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"zablab/zab/core"
)

// zkTick is ZooKeeper's default tickTime: the failover tests run with it, so
// anything that waits for a tick shows as seconds.
const zkTick = 2 * time.Second

// clockRun drives a cluster as the runtime does, on a clock: every step of
// the clock it delivers what is queued, wakes each core whose NextDeadline
// has come (in id order), and ticks each core every tickTime since its
// last tick. It stops when cond holds or max time has passed, and returns
// the clock time taken.
func (cl *cluster) clockRun(max time.Duration, ticks map[uint64]int64, cond func() bool) (time.Duration, bool) {
	const step = 5 * time.Millisecond
	start := cl.now
	for {
		cl.deliver()
		if cond() {
			return time.Duration(cl.now - start), true
		}
		if time.Duration(cl.now-start) >= max {
			return time.Duration(cl.now - start), false
		}
		cl.now += int64(step)
		for _, id := range cl.all() {
			n := cl.nodes[id]
			if n.c == nil {
				continue
			}
			if at, ok := n.c.NextDeadline(); ok && at <= cl.now {
				n.c.Wake(cl.now)
				cl.process(n)
				cl.deliver()
			}
			if ticks != nil && cl.now-ticks[id] >= int64(zkTick) {
				ticks[id] = cl.now
				n.c.Tick(cl.now)
				cl.process(n)
			}
		}
	}
}

// A 3-peer ensemble at ZooKeeper's tickTime of 2 s whose leader crashes (its
// connections close: MsgPeerLost) broadcasts again under a new leader within
// a second of clock: the election decides after the 200 ms finalize wait,
// not at the next tick, and the follower's CEPOCH that reaches the new
// leader while it still looks is kept, not resent ticks later. The crash
// comes right after a tick, so a tick-bound step would cost 2 s. Staggered:
// peer 2 hears of the crash first, and its vote reaches peer 1 while that
// still follows; peer 1's own vote must then be answered, not left for the
// resend two ticks later.
func TestFailoverAtZooKeeperTickTimeTakesLessThanASecond(t *testing.T) {
	for _, staggered := range []bool{false, true} {
		cl := newCluster(t, 3, 0)
		cl.tickLen = zkTick
		cl.start()
		ticks := map[uint64]int64{}
		if took, ok := cl.clockRun(30*time.Second, ticks, cl.settled); !ok {
			t.Fatalf("no leader after %v of clock", took)
		}
		old := cl.leader()
		if old != 3 {
			t.Fatalf("leader %d, want 3 (the highest id)", old)
		}
		v := cl.propose(old)
		cl.deliver()
		for _, id := range cl.all() { // every peer just ticked: the next tick is 2 s away
			ticks[id] = cl.now
			cl.nodes[id].c.Tick(cl.now)
			cl.process(cl.nodes[id])
		}
		cl.deliver()
		cl.crash(old)
		for _, id := range []uint64{2, 1} {
			cl.nodes[id].c.Step(core.Message{Type: core.MsgPeerLost, From: old, To: id}, cl.now)
			cl.process(cl.nodes[id])
			if staggered {
				cl.deliver()
			}
		}
		took, ok := cl.clockRun(10*time.Second, ticks, func() bool { return cl.settled() && cl.leader() != old })
		if !ok || took >= time.Second {
			t.Fatalf("staggered %v: broadcasting again %v after the leader crashed (settled: %v), want < 1s at tickTime %v",
				staggered, took, ok, zkTick)
		}
		t.Logf("staggered %v: new leader %d broadcasts %v after leader %d crashed", staggered, cl.leader(), took, old)
		w := cl.propose(cl.leader())
		cl.deliver()
		if !cl.has(v, w) {
			t.Fatalf("after failover not every peer delivered %d and %d", v, w)
		}
		cl.agree()
	}
}

// A CEPOCH that reaches a peer while it is still LOOKING is kept and handed
// to it when it leads: with no tick at all (so nothing is resent), the
// ensemble still reaches broadcast. The follower (peer 1, which loses the
// election to peer 2 once 3 is gone) is woken first at the finalize
// deadline, so its CEPOCH arrives while peer 2 still looks.
func TestCEpochWhileLookingIsKept(t *testing.T) {
	cl := newCluster(t, 3, 0)
	cl.tickLen = zkTick
	cl.start(1, 2)
	took, ok := cl.clockRun(5*time.Second, nil, cl.settled) // nil: never tick
	if !ok {
		for _, id := range []uint64{1, 2} {
			s := cl.nodes[id].c.Status()
			t.Logf("peer %d: %v %v leader %d", id, s.Role, s.Phase, s.Leader)
		}
		t.Fatalf("no broadcast after %v of clock without ticks (only the finalize deadline and the kept CEPOCH can get there)\ntrace: %v", took, cl.trace)
	}
	if l := cl.leader(); l != 2 {
		t.Fatalf("leader %d, want 2 (the scenario needs the follower to decide first)", l)
	}
	if took >= time.Second {
		t.Fatalf("broadcast after %v, want < 1s", took)
	}
}

// FinalizeWait defaults to ZooKeeper's 200 ms, or the tick if shorter; a
// negative one is a configuration error.
func TestFinalizeWaitDefault(t *testing.T) {
	for _, tc := range []struct{ tick, want time.Duration }{
		{2 * time.Second, 200 * time.Millisecond},
		{100 * time.Millisecond, 100 * time.Millisecond},
	} {
		cl := newCluster(t, 1, 0)
		cl.tickLen = tc.tick
		cl.start()
		n := cl.nodes[1].c
		if n.Status().Role != core.Looking {
			t.Fatalf("tick %v: a lone voter decided at once, want a finalize wait", tc.tick)
		}
		at, ok := n.NextDeadline()
		if !ok || at-cl.now != int64(tc.want) {
			t.Fatalf("tick %v: deadline %v (ok %v) after start, want %v", tc.tick, time.Duration(at-cl.now), ok, tc.want)
		}
		n.Wake(at - 1)
		if n.Status().Role != core.Looking {
			t.Fatalf("tick %v: decided before the finalize wait was over", tc.tick)
		}
		n.Wake(at)
		if n.Status().Role != core.Leading {
			t.Fatalf("tick %v: still %v at the deadline, want LEADING", tc.tick, n.Status().Role)
		}
	}
	_, err := core.New(core.Config{ID: 1, Voters: []uint64{1}, InitLimit: 10, SyncLimit: 5,
		FinalizeWait: -time.Millisecond, Rand: rand.New(rand.NewPCG(1, 1))}, core.Restored{})
	if !errors.Is(err, core.ErrConfig) || !strings.Contains(err.Error(), "finalize wait") {
		t.Fatalf("negative FinalizeWait: %v, want a configuration error about it", err)
	}
}
