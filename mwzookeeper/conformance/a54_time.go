package conformance

import (
	"fmt"
	"sort"
	"time"

	"zablab/internal/svctest"
	"zablab/internal/wait"
)

// A5.4: timestamps on three replicas whose clocks disagree by seconds.
var timeTests = []test{
	{"A5.4", "SameEverywhere", 8, "ctime and mtime are the same on every replica while the clocks are skewed by ±5 s", testSameTimestamps},
	{"A5.4", "LeaderClock", 6, "ctime and mtime come from the leader's clock (within 1 s, in ms), whichever replica took the write; setData moves mtime only", testLeaderClock},
	{"A5.4", "AcrossLeaderChange", 6, "after the leader (clock 6 s ahead) stops, new timestamps are not earlier than the old ones, though the new leader's clock is behind", testAcrossLeaderChange},
}

// skewed are clocks 5 s ahead, 5 s behind and 2 s ahead. None is right:
// the Host's clock is the only one the suite can skew, so a Service that
// stamps writes with the machine's clock (time.Now() where it proposes,
// the variant proposer-clock) would match a leader whose clock were right,
// and earn LeaderClock without taking the leader's timestamps. 2 s keeps
// replica 3's window (stampTolerance either side) apart from replica 1's.
var skewed = svctest.Options{Skews: []time.Duration{5 * time.Second, -5 * time.Second, 2 * time.Second}}

// stampTolerance is how far a timestamp may be from the leader's clock.
const stampTolerance = time.Second

// times are a node's ctime and mtime.
type times struct{ ctime, mtime, czxid int64 }

// timesOn syncs replica i and reads the times of paths there.
func (x *ens) timesOn(i int, paths []string) map[string]times {
	x.c.Helper()
	s := x.reader(i)
	x.settle(i, s)
	out := map[string]times{}
	for _, p := range paths {
		_, st := x.getData(i, s, p)
		out[p] = times{st.Ctime, st.Mtime, st.Czxid}
	}
	return out
}

// sameTimes reads paths on every running replica and fails if their
// ctime or mtime differ; it returns the first replica's view.
func (x *ens) sameTimes(paths []string) map[string]times {
	x.c.Helper()
	rs := x.running()
	first := x.timesOn(rs[0], paths)
	for _, i := range rs[1:] {
		other := x.timesOn(i, paths)
		for _, p := range paths {
			a, b := first[p], other[p]
			if a.ctime != b.ctime || a.mtime != b.mtime {
				x.c.failf(fmt.Sprintf("getData %s on replicas %d and %d (clocks skewed by seconds)", p, rs[0], i),
					"the same ctime and mtime on every replica (the leader's timestamp of the write)",
					fmt.Sprintf("ctime %d mtime %d on replica %d, ctime %d mtime %d on replica %d", a.ctime, a.mtime, rs[0], b.ctime, b.mtime, i))
			}
		}
	}
	return first
}

// writeFromEach creates /<base>/r<i>-<k> from a session on every running
// replica and then sets its data, and returns the paths.
func (x *ens) writeFromEach(base string, k int) []string {
	x.c.Helper()
	var paths []string
	for _, i := range x.running() {
		s := x.reader(i)
		for j := 0; j < k; j++ {
			p := fmt.Sprintf("%s/r%d-%d", base, i, j)
			x.create(i, s, p, "", pers)
			x.setData(i, s, p, "changed", -1)
			paths = append(paths, p)
		}
	}
	return paths
}

func testSameTimestamps(c *T) {
	x := c.start(3, skewed)
	x.create(1, x.reader(1), "/ts", "", pers)
	paths := x.writeFromEach("/ts", 4)
	for p, t := range x.sameTimes(paths) {
		if t.mtime < t.ctime {
			c.failf("getData "+p, fmt.Sprintf("an mtime not before the ctime %d (setData came after create)", t.ctime), fmt.Sprintf("mtime %d", t.mtime))
		}
	}
}

func testLeaderClock(c *T) {
	x := c.start(3, skewed)
	l := x.leader("/clock-probe")
	if l == 0 {
		c.fatalf("LeaderClock: the ctime of a new node matches no replica's clock (within %s); clocks are skewed by +5 s, -5 s and +2 s", stampTolerance)
	}
	lc := x.e.Host(l)
	x.create(1, x.reader(1), "/lc", "", pers)
	type window struct {
		lo, hi int64
		from   int
	}
	wins := map[string]window{}
	for i := 1; i <= 3; i++ {
		s := x.reader(i)
		for k := 0; k < 3; k++ {
			p := fmt.Sprintf("/lc/r%d-%d", i, k)
			lo := lc.Now().Add(-stampTolerance).UnixMilli()
			x.create(i, s, p, "", pers)
			wins[p] = window{lo, lc.Now().Add(stampTolerance).UnixMilli(), i}
		}
	}
	for i := 1; i <= 3; i++ {
		for p, t := range x.timesOn(i, keys(wins)) {
			if w := wins[p]; t.ctime < w.lo || t.ctime > w.hi {
				c.failf(fmt.Sprintf("getData %s on replica %d; the create was taken by replica %d, the leader is replica %d", p, i, w.from, l),
					fmt.Sprintf("a ctime within %s of the leader's clock: between %d and %d", stampTolerance, w.lo, w.hi),
					fmt.Sprintf("ctime %d (%+.1f s off the leader's clock)", t.ctime, float64(t.ctime-(w.lo+w.hi)/2)/1000))
			}
		}
	}
	x.setMovesMtime(lc)
}

// setMovesMtime checks that setData moves mtime, and not ctime, to the
// leader's clock at the write, on the replica that took it (lc is the
// leader's Host). It first waits for the leader's clock to pass the
// node's ctime (a millisecond or so), so a moved mtime differs from it.
func (x *ens) setMovesMtime(lc *svctest.Host) {
	x.c.Helper()
	for i := 1; i <= 3; i++ {
		s := x.reader(i)
		p := fmt.Sprintf("/lc/r%d-0", i)
		_, st := x.getData(i, s, p)
		wait.For(x.c.T, fmt.Sprintf("%s: the leader's clock to pass the ctime %d of %s", x.c.part.ID, st.Ctime, p), stampTolerance,
			func() bool { return lc.Now().UnixMilli() > st.Ctime })
		lo := lc.Now().Add(-stampTolerance).UnixMilli()
		set := x.setData(i, s, p, "moved", -1)
		hi := lc.Now().Add(stampTolerance).UnixMilli()
		if set.Ctime != st.Ctime || set.Mtime <= st.Ctime || set.Mtime < lo || set.Mtime > hi {
			x.c.failf(fmt.Sprintf("setData %s on replica %d, after the leader's clock passed its ctime %d", p, i, st.Ctime),
				fmt.Sprintf("the same ctime %d and an mtime after it, within %s of the leader's clock: between %d and %d", st.Ctime, stampTolerance, max(lo, st.Ctime+1), hi),
				fmt.Sprintf("ctime %d mtime %d", set.Ctime, set.Mtime))
		}
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func testAcrossLeaderChange(c *T) {
	x := c.start(3, skewed)
	l := x.leader("/change-probe")
	if l == 0 {
		c.fatalf("AcrossLeaderChange: cannot tell which replica leads: no mwzookeeper.Reporter, and the ctime of a new node matches no replica's clock")
	}
	// The leader runs ahead; whoever leads next runs behind.
	for i := 1; i <= 3; i++ {
		x.e.Host(i).SetSkew(-6*time.Second + time.Duration(i)*time.Second)
	}
	x.e.Host(l).SetSkew(6 * time.Second)
	f := x.follower(l)
	x.create(f, x.reader(f), "/lch", "", pers)
	before := x.writeFromEach("/lch", 2)
	var newest int64
	for _, t := range x.sameTimes(before) {
		newest = max(newest, t.ctime, t.mtime)
	}
	x.stop(l)
	for _, i := range x.running() {
		x.settle(i, x.reader(i))
	}
	x.create(f, x.reader(f), "/lch2", "", pers)
	after := x.writeFromEach("/lch2", 3)
	all := x.sameTimes(append(append([]string(nil), before...), after...))
	for _, p := range after {
		if t := all[p]; t.ctime < newest {
			c.failf(fmt.Sprintf("getData %s, created after the leader (clock +6 s) stopped", p),
				fmt.Sprintf("a ctime not before %d, the newest timestamp under the old leader", newest),
				fmt.Sprintf("ctime %d, %.1f s earlier: timestamps went back with the new leader's clock", t.ctime, float64(newest-t.ctime)/1000))
		}
	}
	order := keys(all)
	sort.Slice(order, func(a, b int) bool { return all[order[a]].czxid < all[order[b]].czxid })
	for k := 1; k < len(order); k++ {
		if p, q := all[order[k-1]], all[order[k]]; q.ctime < p.ctime {
			c.failf(fmt.Sprintf("the ctimes of %s and %s, created in this order (czxid %#x, %#x)", order[k-1], order[k], p.czxid, q.czxid),
				"ctimes that do not decrease along the order of writes", fmt.Sprintf("%d, then %d", p.ctime, q.ctime))
		}
	}
}
