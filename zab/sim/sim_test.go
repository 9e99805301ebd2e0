package sim

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"sync"
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
	const chunks = 4 // parallel subtests, so both cores work
	var mu sync.Mutex
	maxLive := 0
	t.Cleanup(func() {
		t.Logf("%d schedules; slowest recovery after faults: %d ticks (bound %d)", n, maxLive, livenessBound)
	})
	for c := 0; c < chunks; c++ {
		t.Run(fmt.Sprintf("seeds%d", c), func(t *testing.T) {
			t.Parallel()
			for seed := uint64(1 + c); seed <= uint64(n); seed += chunks {
				r := Run(Options{Seed: seed, Observers: -1})
				if r.Failed() {
					t.Errorf("%v\n  replay: ZAB_SEED=%d go test ./zab/sim -run TestSimulation -v", r, seed)
				}
				mu.Lock()
				maxLive = max(maxLive, r.LivenessTicks)
				mu.Unlock()
			}
		})
	}
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

// TestReplayIsExact runs seeds twice with a trace and compares the traces
// byte for byte: a failing seed must replay exactly.
func TestReplayIsExact(t *testing.T) {
	for _, seed := range []uint64{7, 443, 2632, 16261} {
		var a, b bytes.Buffer
		ra := Run(Options{Seed: seed, Observers: -1, Trace: &a})
		rb := Run(Options{Seed: seed, Observers: -1, Trace: &b})
		if a.Len() < 1000 {
			t.Fatalf("seed %d: trace of %d bytes is too short to mean anything", seed, a.Len())
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) || ra != rb {
			t.Fatalf("seed %d: two runs differ (%d vs %d trace bytes; %v vs %v)", seed, a.Len(), b.Len(), ra, rb)
		}
	}
}
