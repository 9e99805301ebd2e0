package server

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestLatencyFiguresKeepMinAvgMaxInOrder(t *testing.T) {
	for _, tc := range []struct {
		name           string
		took           []time.Duration
		wantLo, wantHi int64
	}{
		{"all under a millisecond", []time.Duration{300 * time.Microsecond, 900 * time.Microsecond}, 0, 1},
		{"across whole ms", []time.Duration{1500 * time.Microsecond, 2 * time.Millisecond, 7200 * time.Microsecond}, 1, 8},
		{"exactly whole ms", []time.Duration{2 * time.Millisecond, 3 * time.Millisecond}, 2, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c counters
			c.init()
			for _, d := range tc.took {
				c.count.Add(1)
				c.sumNs.Add(int64(d))
				if int64(d) < c.minNs.Load() {
					c.minNs.Store(int64(d))
				}
				if int64(d) > c.maxNs.Load() {
					c.maxNs.Store(int64(d))
				}
			}
			lo, avg, hi := c.latencyMs()
			if lo != tc.wantLo || hi != tc.wantHi {
				t.Errorf("min/max %d/%d ms, want %d/%d", lo, hi, tc.wantLo, tc.wantHi)
			}
			if float64(lo) > avg || avg > float64(hi) {
				t.Errorf("min/avg/max %d/%.4f/%d: out of order", lo, avg, hi)
			}
		})
	}
}

// A read between a reply's count and its min/max (the reviewer's case):
// min must not show its start value, max not 0.
func TestLatencyFiguresInOrderMidReply(t *testing.T) {
	var c counters
	c.init()
	c.count.Add(1)
	c.sumNs.Add(int64(300 * time.Microsecond))
	if lo, avg, hi := c.latencyMs(); float64(lo) > avg || avg > float64(hi) {
		t.Errorf("min/avg/max %d/%.4f/%d: out of order", lo, avg, hi)
	}
}

// Replies and srst beside the reads, as clients' requests beside srvr.
func TestLatencyFiguresInOrderBesideRepliesAndResets(t *testing.T) {
	var c counters
	c.init()
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			c.reset()
			c.reply(time.Now().Add(-300*time.Microsecond), 1)
		}
	}()
	defer func() { stop.Store(true); wg.Wait() }()
	for i := 0; i < 200_000; i++ {
		if lo, avg, hi := c.latencyMs(); float64(lo) > avg || avg > float64(hi) {
			t.Fatalf("read %d: min/avg/max %d/%.4f/%d: out of order", i, lo, avg, hi)
		}
	}
}
