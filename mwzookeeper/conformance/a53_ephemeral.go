package conformance

import (
	"fmt"
	"strings"
	"time"

	"zablab/internal/svctest"
	"zablab/internal/wait"
)

// A5.3: ephemeral nodes on three replicas.
var ephemeralTests = []test{
	{"A5.3", "GoneAfterClose", 5, "a closed session's ephemerals are gone on every replica, its persistent nodes stay", testGoneAfterClose},
	{"A5.3", "GoneAfterExpiry", 6, "a silent session expires: its ephemerals go on every replica, at one point of the order", testGoneAfterExpiry},
	{"A5.3", "GoneWhenServerStops", 6, "the replica holding a session stops: the session expires and its ephemerals go on the other replicas", testGoneWhenServerStops},
	{"A5.3", "ThroughServer", 3, "the whole path: a client's ephemeral, seen through another server, goes when the client closes and when its server stops", testThroughServerEphemeral},
}

// shortSession is the timeout of a session a test lets expire: 15 ticks,
// long enough that a stall of the machine between its requests does not
// end it early.
const shortSession = 15 * testTick

// makeEphemerals creates /<base>/e0, e1 (ephemeral) and /<base>/keep
// (persistent) from session s on replica i, and checks that every
// replica has them.
func (x *ens) makeEphemerals(i int, s int64, base string) []string {
	x.c.Helper()
	x.create(i, x.reader(i), base, "", pers)
	var paths []string
	for k := 0; k < 2; k++ {
		p := fmt.Sprintf("%s/e%d", base, k)
		x.create(i, s, p, "", eph)
		paths = append(paths, p)
	}
	x.create(i, s, base+"/keep", "", pers)
	for _, j := range x.running() {
		x.settle(j, x.reader(j))
		for _, p := range paths {
			st, ok := x.exists(j, x.reader(j), p)
			if !ok || st.EphemeralOwner != s {
				x.c.failf(fmt.Sprintf("exists %s on replica %d after a sync", p, j),
					fmt.Sprintf("the ephemeral node, owned by session %#x", s), fmt.Sprintf("found=%v stat %s", ok, statText(st)))
			}
		}
	}
	return paths
}

// lagging checks, for a node already gone on some replica, that every
// other replica has it gone too once it is synced: the write that removed
// it was committed, so a sync must bring it everywhere.
func (x *ens) lagging(paths []string, gone map[string]map[int]bool) {
	x.c.Helper()
	for _, p := range paths {
		var where []int
		for i, g := range gone[p] {
			if g {
				where = append(where, i)
			}
		}
		if len(where) == 0 {
			continue
		}
		for _, i := range x.running() {
			if gone[p][i] {
				continue
			}
			x.settle(i, x.reader(i))
			if _, ok := x.exists(i, x.reader(i), p); ok {
				x.c.failf(fmt.Sprintf("exists %s on replica %d after a sync", p, i),
					fmt.Sprintf("error NoNode, as on replica %d (the write that removed it was committed)", where[0]), "the node: it is gone on one replica and left on another")
			}
			gone[p][i] = true
		}
	}
}

// whereStill names the replicas that still have one of paths.
func (x *ens) whereStill(paths []string) string {
	x.c.Helper()
	var out []string
	for _, i := range x.running() {
		for _, p := range paths {
			if st, ok := x.exists(i, x.reader(i), p); ok {
				out = append(out, fmt.Sprintf("%s on replica %d (owner %#x)", p, i, st.EphemeralOwner))
			}
		}
	}
	return strings.Join(out, ", ")
}

// sample is one look at a node on one replica.
type sample struct {
	replica int
	zxid    int64
	present bool
}

// untilGone looks at paths on every running replica until none has them,
// at most d, and fails if two replicas disagree at the same applied zxid
// (the zxid of a read's reply), or a node comes back on a replica. Then it
// checks, after a sync on every replica, that they are gone and that
// keep stayed.
func (x *ens) untilGone(paths []string, keep string, d time.Duration, why string) {
	x.c.Helper()
	c := x.c
	seen := map[string]map[int64]sample{} // path -> zxid -> first sample
	gone := map[string]map[int]bool{}     // path -> replica -> seen gone
	for _, p := range paths {
		seen[p], gone[p] = map[int64]sample{}, map[int]bool{}
	}
	look := func() bool {
		all := true
		for _, i := range x.running() {
			for _, p := range paths {
				req := reqExists(x.reader(i), p)
				r := x.do(i, req)
				if sameCode(r.Err, wantConnectionLoss) {
					// The replica looks for a leader (on a loaded machine a
					// liveness check can start an election): look again.
					all = false
					continue
				}
				if r.Err != nil && !sameCode(r.Err, wantNoNode) {
					c.failf(on(req, i), "the node's stat or error NoNode", describe(req, r))
				}
				now := sample{i, r.Zxid, r.Err == nil}
				if now.present && gone[p][i] {
					c.failf(on(req, i), fmt.Sprintf("error NoNode: %s was already gone on this replica", p), describe(req, r))
				}
				gone[p][i] = gone[p][i] || !now.present
				if prev, ok := seen[p][r.Zxid]; ok && r.Zxid != 0 && prev.present != now.present {
					c.failf(fmt.Sprintf("exists %s on replicas %d and %d, both at applied zxid %#x", p, prev.replica, i, r.Zxid),
						"the same answer (an ephemeral is never left on one replica and gone on another at the same point of the order)",
						fmt.Sprintf("present=%v on replica %d, present=%v on replica %d", prev.present, prev.replica, now.present, i))
				} else if !ok {
					seen[p][r.Zxid] = now
				}
				all = all && !now.present
			}
		}
		if !all {
			x.lagging(paths, gone)
		}
		return all
	}
	start := time.Now()
	if !poll(d, look) {
		c.failf(fmt.Sprintf("exists %q on every replica, %s", paths, why),
			fmt.Sprintf("error NoNode everywhere within %s", d), "a node still there: "+x.whereStill(paths))
	}
	c.Logf("%s: ephemerals gone on every replica within %.0f ms, %s", c.part.ID, float64(time.Since(start).Microseconds())/1000, why)
	for _, i := range x.running() {
		x.settle(i, x.reader(i))
		for _, p := range paths {
			if _, ok := x.exists(i, x.reader(i), p); ok {
				c.failf(fmt.Sprintf("exists %s on replica %d after a sync, %s", p, i, why), "error NoNode", "the node")
			}
		}
		if _, ok := x.exists(i, x.reader(i), keep); !ok {
			c.failf(fmt.Sprintf("exists %s on replica %d, %s", keep, i, why), "the persistent node of the session (it stays)", "error NoNode")
		}
	}
}

func testGoneAfterClose(c *T) {
	x := c.start(3, svctest.Options{})
	s := x.session(2, longSession)
	paths := x.makeEphemerals(2, s, "/close")
	x.closeSession(2, s)
	x.untilGone(paths, "/close/keep", 5*time.Second, "after closeSession")
	req := reqCreate(s, "/close/late", "", pers)
	if r := x.do(2, req); r.Err == nil {
		c.failf(on(req, 2)+" by the closed session", "an error (SessionExpired)", describe(req, r))
	}
}

func testGoneAfterExpiry(c *T) {
	x := c.start(3, svctest.Options{})
	s := x.session(2, shortSession)
	paths := x.makeEphemerals(2, s, "/expire")
	long := x.longEphemeral(2, "/expire/long") // silent as well, but with a long timeout
	why := fmt.Sprintf("after the session (timeout %s) fell silent", shortSession)
	x.untilGone(paths, "/expire/keep", 10*shortSession, why)
	x.outlived(long, "/expire/long", s, why)
	wait.For(c.T, fmt.Sprintf("%s: replica 2 to report session %#x expired to its Host (SessionClosed(s, true))", c.part.ID, s),
		5*time.Second, func() bool {
			closed, expired := x.e.Host(2).Closed(s)
			return closed && expired
		})
}

func testGoneWhenServerStops(c *T) {
	x := c.start(3, svctest.Options{})
	i := 3
	if x.e.Leader() == 3 {
		i = 2
	}
	s := x.session(i, shortSession)
	paths := x.makeEphemerals(i, s, "/crash")
	// A replica's end is no end of its sessions (their clients may
	// reconnect to another replica within the timeout): a Service that
	// closes its sessions when it is stopped, instead of letting them
	// expire as after a crash, loses the long one (variant
	// expire-own-close-at-stop).
	long := x.longEphemeral(i, "/crash/long")
	x.stop(i)
	why := fmt.Sprintf("after replica %d, which held the session, stopped", i)
	x.untilGone(paths, "/crash/keep", 10*shortSession, why)
	x.outlived(long, "/crash/long", s, why)
}

// longEphemeral creates path, an ephemeral of a new session on replica i
// whose timeout (longSession) does not pass during a test, and returns
// the session.
func (x *ens) longEphemeral(i int, path string) int64 {
	x.c.Helper()
	long := x.session(i, longSession)
	x.create(i, long, path, "", eph)
	x.settle(i, long)
	return long
}

// outlived checks that path, the ephemeral of session long, is still on
// every running replica once the ephemerals of the short session s are
// gone: a session ends by its own timeout (variants fixed-expiry,
// expire-own-close-at-stop).
func (x *ens) outlived(long int64, path string, s int64, why string) {
	x.c.Helper()
	for _, j := range x.running() {
		if st, ok := x.exists(j, x.reader(j), path); !ok || st.EphemeralOwner != long {
			x.c.failf(fmt.Sprintf("exists %s on replica %d, once the ephemerals of session %#x (timeout %s) were gone %s", path, j, s, shortSession, why),
				fmt.Sprintf("the ephemeral node of session %#x, whose timeout (%s) has not passed: a session ends by its own timeout; a replica's stop, like its crash, ends none before it", long, longSession),
				fmt.Sprintf("found=%v stat %s", ok, statText(st)))
		}
	}
}
