package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/pflag"
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "peer" {
		if err := runPeer(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "zab-bench peer:", err)
			os.Exit(1)
		}
		return
	}
	proposers := pflag.IntSlice("proposers", []int{1, 64}, "closed-loop proposer counts to measure")
	duration := pflag.Duration("duration", 5*time.Second, "length of each load run")
	failover := pflag.Bool("failover", true, "also measure failover after kill -9 of the leader")
	tick := pflag.Int("tick-ms", 20, "tickTime of the ensemble in ms (failover detection is syncLimit=5 ticks)")
	pflag.Parse()
	if *duration <= 0 || *tick < 1 {
		fmt.Fprintln(os.Stderr, "zab-bench: --duration and --tick-ms must be positive")
		os.Exit(2)
	}
	if err := bench(*proposers, *duration, *failover, *tick); err != nil {
		fmt.Fprintln(os.Stderr, "zab-bench:", err)
		os.Exit(1)
	}
}
