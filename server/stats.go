package server

import (
	"math"
	"sync/atomic"
	"time"
)

// counters are the server's figures for the four-letter words. Atomics: the
// hot path takes no lock for them.
type counters struct {
	received atomic.Int64 // frames read
	sent     atomic.Int64 // replies and events queued
	count    atomic.Int64 // replies with a latency
	sumNs    atomic.Int64
	minNs    atomic.Int64
	maxNs    atomic.Int64
}

func (c *counters) init() { c.minNs.Store(math.MaxInt64) }

// reply counts n frames queued; start, if set, is when the request that
// completed arrived.
func (c *counters) reply(start time.Time, n int) {
	c.sent.Add(int64(n))
	if start.IsZero() {
		return
	}
	d := int64(time.Since(start))
	c.count.Add(1)
	c.sumNs.Add(d)
	for v := c.minNs.Load(); d < v && !c.minNs.CompareAndSwap(v, d); v = c.minNs.Load() {
	}
	for v := c.maxNs.Load(); d > v && !c.maxNs.CompareAndSwap(v, d); v = c.maxNs.Load() {
	}
}

// latencyMs returns min, average and max request latency in ms, as
// ZooKeeper prints them: min and max in whole ms, min rounded down and max
// up, so that min <= avg <= max holds as it does in ZooKeeper's (which
// times requests in whole ms). Truncating max made a server whose every
// request took under a millisecond print an average above its maximum.
func (c *counters) latencyMs() (lo int64, avg float64, hi int64) {
	n := c.count.Load()
	if n == 0 {
		return 0, 0, 0
	}
	ms := float64(time.Millisecond)
	avg = float64(c.sumNs.Load()) / float64(n) / ms
	lo = int64(math.Floor(float64(c.minNs.Load()) / ms))
	hi = int64(math.Ceil(float64(c.maxNs.Load()) / ms))
	// The figures are separate atomics (the hot path takes no lock), so a
	// read beside a reply or an srst can see a mix: the count already 1 and
	// min still at its start value. The average is right either way, and
	// bounds the other two.
	return min(lo, int64(math.Floor(avg))), avg, max(hi, int64(math.Ceil(avg)))
}

// reset zeroes the latency and packet figures (srst).
func (c *counters) reset() {
	c.received.Store(0)
	c.sent.Store(0)
	c.count.Store(0)
	c.sumNs.Store(0)
	c.maxNs.Store(0)
	c.minNs.Store(math.MaxInt64)
}
