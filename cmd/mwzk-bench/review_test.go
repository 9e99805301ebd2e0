package main

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/realzk"
)

// With --runs 2 the follower line has two values per system; its "median"
// must not be simply the larger one (and six leader trials must not
// report the upper of the two middle values).
func TestMedianOfEvenCount(t *testing.T) {
	if m := median([]float64{10, 1000}); m != 505 {
		t.Errorf("median of [10 1000] = %v, want 505 (the mean of the two middles)", m)
	}
	if m := median([]float64{212, 215, 220, 224, 250, 262}); m != 222 {
		t.Errorf("median of six trials = %v, want 222 (the mean of 220 and 224)", m)
	}
}

func totalWatches(t *testing.T, addr string) int {
	out := realzk.FourLetter(addr, "wchs")
	m := regexp.MustCompile(`Total watches:\s*(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("wchs answered %q", out)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// The watch load says its clients keep 32 watches each standing while it
// measures ("32 clients keep 1,024 watches standing"). A data watch is
// one-shot, and each op's own Set fires every watch on its path, so once
// every path has been visited no watch is left standing.
func TestWatchLoadKeepsWatchesStanding(t *testing.T) {
	addr := realzk.StartT(t)
	var cs []*zk.Conn
	for i := 0; i < 2; i++ {
		c, err := connect([]string{addr}, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		cs = append(cs, c)
	}
	l := load{name: "watch", clients: 2, inflight: 1, value: 16, prepare: watchNodes, op: watched}
	if err := l.prepare(cs, make([]byte, l.value)); err != nil {
		t.Fatal(err)
	}
	before := totalWatches(t, addr)
	s := drive(cs, l, 0, 500*time.Millisecond, func() float64 { return 0 })
	after := totalWatches(t, addr)
	t.Logf("watches standing: %d after prepare, %d after %d ops (%d errors)", before, after, s.ops, s.errors)
	if want := 2 * watchesPerClient; after < want-2 {
		t.Errorf("%d watches standing during/after the watch load, want about %d", after, want)
	}
}

func TestNearestRankPercentiles(t *testing.T) {
	var lat []time.Duration
	for i := 1; i <= 100; i++ {
		lat = append(lat, time.Duration(i))
	}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{50, 50}, {99, 99}, {99.9, 100}, {100, 100}} {
		if got := rank(lat, c.p); got != c.want {
			t.Errorf("p%v of 1..100 = %v, want %v", c.p, got, c.want)
		}
	}
	if got := rank(lat[:1], 99.9); got != 1 {
		t.Errorf("p99.9 of one value = %v, want it", got)
	}
}
