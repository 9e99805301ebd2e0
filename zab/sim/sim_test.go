package sim

import (
	"bytes"
	"os"
	"strconv"
	"testing"
)

// TestSimulation runs the seeded schedules that make test needs (2,000 by
// default; ZAB_SIM_SEEDS changes the count). ZAB_SEED=<s> replays one seed
// and prints its trace with -v.
func TestSimulation(t *testing.T) {
	if s := os.Getenv("ZAB_SEED"); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("ZAB_SEED=%q is not a seed: %v", s, err)
		}
		var trace bytes.Buffer
		r := Run(Options{Seed: seed, Observers: -1, Trace: &trace})
		t.Log("\n" + trace.String())
		if r.Failed() {
			t.Fatal(r)
		}
		t.Log(r)
		return
	}
	n := envInt(t, "ZAB_SIM_SEEDS", 2000)
	if testing.Short() {
		n = 200
	}
	maxLive := 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r := Run(Options{Seed: seed, Observers: -1})
		if r.Failed() {
			t.Errorf("%v\n  replay: ZAB_SEED=%d go test ./zab/sim -run TestSimulation -v", r, seed)
		}
		maxLive = max(maxLive, r.LivenessTicks)
	}
	t.Logf("%d schedules; slowest recovery after faults: %d ticks (bound %d)", n, maxLive, livenessBound)
}

func envInt(t *testing.T, key string, def int) int {
	s := os.Getenv(key)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q is not a positive number", key, s)
	}
	return n
}
