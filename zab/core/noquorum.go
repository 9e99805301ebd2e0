package core

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// quorumWatch keeps the log readable while a peer finds no quorum: the
// first LOOKING of a stretch without an established leader is logged at
// INFO, every further election round at DEBUG, and every reportEvery a
// WARN summary says how long it lasts and which voters were silent, so an
// operator sees "no quorum: 2 of 3 peers unreachable for 12s" instead of a
// line a second for ever.
type quorumWatch struct {
	active bool
	ticks  int             // ticks since the stretch began
	next   int             // tick of the next summary
	heard  map[uint64]bool // voters heard from since the last summary
}

// reportEvery is the summary's period.
const reportEvery = 10 * time.Second

// reportTicks is reportEvery in ticks (10 ticks without a TickTime).
func (c *Core) reportTicks() int {
	if c.cfg.TickTime <= 0 {
		return 10
	}
	return max(1, int(reportEvery/c.cfg.TickTime))
}

// lookingStarted says whether this LOOKING begins a new stretch; it starts
// the watch if so.
func (c *Core) lookingStarted() bool {
	if c.nq.active {
		return false
	}
	c.nq = quorumWatch{active: true, next: c.reportTicks(), heard: map[uint64]bool{}}
	return true
}

// watchTick counts a tick of the stretch and logs the summary when due.
func (c *Core) watchTick() {
	if !c.nq.active {
		return
	}
	c.nq.ticks++
	if c.nq.ticks < c.nq.next {
		return
	}
	c.nq.next += c.reportTicks()
	var silent []string
	for _, v := range c.cfg.Voters {
		if v != c.cfg.ID && !c.nq.heard[v] {
			silent = append(silent, fmt.Sprintf("peer%d", v))
		}
	}
	clear(c.nq.heard)
	slices.Sort(silent)
	msg := fmt.Sprintf("no quorum: %d of %d peers unreachable for %s", len(silent), len(c.cfg.Voters), c.ticksString(c.nq.ticks))
	if len(silent) > 0 {
		msg += " (silent: " + strings.Join(silent, ", ") + ")"
	} else {
		msg += " (every peer answers; the election has not settled)"
	}
	c.logger().Warn(msg)
}

// watchHeard notes a message from a peer during the stretch.
func (c *Core) watchHeard(from uint64) {
	if c.nq.active {
		c.nq.heard[from] = true
	}
}

// quorumBack ends the stretch when a leader is established; a stretch long
// enough to have been reported gets a closing line.
func (c *Core) quorumBack() {
	if c.nq.active && c.nq.ticks >= c.reportTicks() {
		c.logger().Infof("quorum back after %s", c.ticksString(c.nq.ticks))
	}
	c.nq = quorumWatch{}
}

func (c *Core) ticksString(n int) string {
	if c.cfg.TickTime <= 0 {
		return fmt.Sprintf("%d ticks", n)
	}
	return (time.Duration(n) * c.cfg.TickTime).Round(time.Second).String()
}
