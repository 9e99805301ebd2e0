package server

import (
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
