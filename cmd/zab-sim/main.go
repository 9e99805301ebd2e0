// Command zab-sim runs the Zab simulator over a range of seeds and prints one
// line per failing seed, then "sim: <N> schedules, <V> violations".
package main

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"zablab/zab/sim"
)

func main() {
	seeds := pflag.Int("seeds", 1000, "number of schedules")
	first := pflag.Uint64("first", 1, "first seed")
	workers := pflag.Int("workers", runtime.GOMAXPROCS(0), "schedules run in parallel")
	steps := pflag.Int("steps", 0, "fault steps per schedule (0: default)")
	silent := pflag.Bool("silent-crashes", false, "no crash closes sockets (no lost-connection reports)")
	pflag.Parse()
	if *seeds < 1 || *workers < 1 {
		fmt.Fprintln(os.Stderr, "zab-sim: --seeds and --workers must be positive")
		os.Exit(2)
	}
	start := time.Now()
	results := make(chan sim.Result, *workers)
	var wg sync.WaitGroup
	next := make(chan uint64)
	for range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				results <- sim.Run(sim.Options{Seed: s, Observers: -1, Steps: *steps, SilentCrashes: *silent})
			}
		}()
	}
	go func() {
		for i := 0; i < *seeds; i++ {
			next <- *first + uint64(i)
		}
		close(next)
		wg.Wait()
		close(results)
	}()
	violations, maxLive, done := 0, 0, 0
	for r := range results {
		done++
		if r.Failed() {
			violations++
			fmt.Println(r)
		}
		maxLive = max(maxLive, r.LivenessTicks)
		if done%10000 == 0 {
			fmt.Fprintf(os.Stderr, "zab-sim: %d/%d schedules, %d violations, %s\n", done, *seeds, violations, time.Since(start).Round(time.Second))
		}
	}
	fmt.Fprintf(os.Stderr, "zab-sim: %s, max liveness %d ticks\n", time.Since(start).Round(time.Millisecond), maxLive)
	fmt.Printf("sim: %d schedules, %d violations\n", *seeds, violations)
	if violations > 0 {
		os.Exit(1)
	}
}
