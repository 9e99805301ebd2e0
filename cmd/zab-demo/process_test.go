package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"zablab/internal/wait"
)

// stream sends numbered lines to p until stop closes; it returns how many.
func stream(p *proc, prefix string, stop chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		case <-tick.C:
			p.send(fmt.Sprintf("%s-%d", prefix, i))
		}
	}
}

// TestKillLeaderWhileProposing: kill -9 the leader while proposals stream
// in, restart it; every peer ends with the same sequence, which holds every
// message any peer ever delivered.
func TestKillLeaderWhileProposing(t *testing.T) {
	c := newCluster(t, 3, 200)
	c.startAll()
	old := c.leader()
	f := 1 + old%3
	stop, wg := make(chan struct{}), &sync.WaitGroup{}
	wg.Add(1)
	go stream(c.procs[f-1], "s", stop, wg)
	wait.For(t, "streaming", 10*time.Second, func() bool { return len(c.procs[old-1].delivered()) > 100 })
	before := c.procs[old-1].delivered()
	c.kill(old)
	wait.For(t, "a new leader", 20*time.Second, func() bool { l := c.leader(); return l != 0 && l != old })
	c.start(old)
	wait.For(t, "more deliveries after restart", 20*time.Second, func() bool { return len(c.procs[f-1].delivered()) > len(before)+100 })
	close(stop)
	wg.Wait()
	c.commit(f, "marker")
	want := c.procs[f-1].stateOf(t)
	if !c.procs[f-1].restored() { // f ran throughout: its deliveries are the whole sequence
		full := c.procs[f-1].delivered()
		if len(full) < len(before) || !slices.Equal(before, full[:len(before)]) {
			t.Fatalf("the killed leader delivered %d messages that are not a prefix of the final sequence", len(before))
		}
		if want != fmt.Sprintf("%d %s", len(full), stateHash(full)) {
			t.Fatalf("state %s does not match the %d deliveries", want, len(full))
		}
	}
	for i, p := range c.procs {
		if got := p.stateOf(t); got != want {
			t.Fatalf("peer %d state %s, want %s", i+1, got, want)
		}
	}
}

// TestKillAllAndRestart: kill -9 every peer; the state rebuilt from
// snapshot and log equals the state before.
func TestKillAllAndRestart(t *testing.T) {
	c := newCluster(t, 3, 50)
	c.startAll()
	for i := 0; i < 230; i++ {
		c.procs[i%3].send(fmt.Sprintf("v%d", i))
	}
	for i, p := range c.procs { // each peer's own marker: per-proposer order covers its lines
		p.send(fmt.Sprintf("last%d", i))
	}
	for i := 1; i <= 3; i++ { // each peer's own marker: per-proposer order covers its lines
		c.commit(i, fmt.Sprintf("last%d", i))
	}
	want := c.procs[0].stateOf(t)
	for i := 1; i <= 3; i++ {
		c.kill(i)
	}
	for i := 1; i <= 3; i++ {
		c.start(i)
	}
	wait.For(t, "a leader after the restart", 20*time.Second, func() bool { return c.leader() != 0 })
	for i, p := range c.procs {
		var got string
		wait.For(t, fmt.Sprintf("peer %d rebuilt", i+1), 20*time.Second, func() bool { got = p.stateOf(t); return got == want })
	}
	if n, _ := strconv.Atoi(strings.Fields(want)[0]); n < 200 {
		t.Fatalf("state before the kill was %s: fewer than 200 of 233 lines made it", want)
	}
}

// TestLaggingFollowerCatchesUpBySnap: a follower down for several
// snapshots' worth of messages is brought back by SNAP (one snapCount
// behind is still served by DIFF: the leader keeps its log back to the
// previous snapshot).
func TestLaggingFollowerCatchesUpBySnap(t *testing.T) {
	c := newCluster(t, 3, 20)
	c.startAll()
	l := c.leader()
	f := 1 + l%3
	c.commit(l, "first")
	had := len(c.procs[f-1].delivered())
	c.kill(f)
	// Five waves of 30, each delivered before the next, so the leader takes
	// at least five snapshots (snapCount 20): it keeps its log back to the
	// previous snapshot only, so the follower's point is long gone.
	for wave := 0; wave < 5; wave++ {
		for i := 0; i < 30; i++ {
			c.procs[l-1].send(fmt.Sprintf("w%d-%d", wave, i))
		}
		c.commit(l, fmt.Sprintf("wave%d", wave))
	}
	want := c.procs[l-1].stateOf(t)
	p := c.start(f)
	wait.For(t, "the follower catches up", 20*time.Second, func() bool { return p.stateOf(t) == want })
	p.mu.Lock()
	restores := slices.Clone(p.rest)
	p.mu.Unlock()
	// The follower's own snapshots hold at most the `had` lines it knew when
	// killed; a larger restore can only be the leader's SNAP.
	if len(restores) == 0 || slices.Max(restores) <= had {
		t.Fatalf("follower knew %d lines, restored %v by snapshot: no SNAP from the leader", had, restores)
	}
}
