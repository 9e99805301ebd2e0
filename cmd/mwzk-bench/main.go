package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
	flag "github.com/spf13/pflag"

	"zablab/internal/realzk"
)

type options struct {
	server, out, baseline, only, dir string
	systems                          []string
	runs, trials                     int
	duration, warmup                 time.Duration
	set                              settings
}

func main() {
	o, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mwzk-bench:", err)
		os.Exit(2)
	}
	if err := bench(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mwzk-bench:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("mwzk-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.server, "server", "bin/mwzk-server", "the mwzk-server binary to run (make bench builds it)")
	fs.StringSliceVar(&o.systems, "systems", []string{"zookeeper", "ours"}, "what to measure: zookeeper, ours, or both (the default, zookeeper,ours)")
	fs.IntVar(&o.runs, "runs", 2, "identical runs of everything (two or more show the noise)")
	fs.IntVar(&o.trials, "failover-trials", 3, "leader kills per system and run, each on a fresh ensemble")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "measured time per load")
	fs.DurationVar(&o.warmup, "warmup", 2*time.Second, "unmeasured time before each load")
	fs.StringVar(&o.only, "only", "", "run only the loads whose name contains this text (failover and memory still run)")
	fs.StringVar(&o.out, "out", "bench-results.json", "write the results here, for a later --baseline")
	fs.StringVar(&o.baseline, "baseline", "", "compare with the results a former run wrote")
	fs.StringVar(&o.dir, "dir", "", "data folders of the ensembles (default: a temporary folder, removed at the end)")
	fs.IntVar(&o.set.tickTime, "tick-time", 2000, "tickTime of both systems, in ms")
	fs.IntVar(&o.set.initLimit, "init-limit", 10, "initLimit of both systems, in ticks")
	fs.IntVar(&o.set.syncLimit, "sync-limit", 5, "syncLimit of both systems, in ticks")
	fs.BoolVar(&o.set.noFsync, "no-fsync", false, "forceSync=no on both systems: logs written, never fsynced (shows what the disk costs; not durable)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "mwzk-bench: our 3-server ensemble side by side with Apache ZooKeeper's, on this machine")
		fmt.Fprintln(stderr, "usage: mwzk-bench [flags]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	for i, s := range o.systems {
		if s != "zookeeper" && s != "ours" {
			fs.Usage()
			return o, fmt.Errorf("--systems: %q is neither zookeeper nor ours", s)
		}
		if slices.Contains(o.systems[:i], s) {
			fs.Usage()
			return o, fmt.Errorf("--systems: %q named twice", s)
		}
	}
	if o.runs < 1 || o.trials < 0 || o.duration <= 0 || o.warmup < 0 {
		fs.Usage()
		return o, fmt.Errorf("--runs must be at least 1, --failover-trials at least 0, --duration above 0")
	}
	return o, nil
}

// bench runs every system o.runs times, alternating which goes first, and
// prints and writes what it measured.
func bench(o options, w io.Writer) error {
	if err := preflight(o); err != nil {
		return err
	}
	dir := o.dir
	if dir == "" {
		d, err := os.MkdirTemp("", "mwzk-bench-")
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		defer os.RemoveAll(d)
		dir = d
	}
	rep := newReport(o)
	for run := 1; run <= o.runs; run++ {
		order := o.systems
		if run%2 == 0 { // the other system first: no side always gets the cooler machine
			order = []string{o.systems[len(o.systems)-1], o.systems[0]}[:len(o.systems)]
		}
		for _, sys := range order {
			if err := measure(o, rep, sys, run, filepath.Join(dir, fmt.Sprintf("run%d-%s", run, sys)), w); err != nil {
				return err
			}
		}
	}
	rep.print(w)
	if o.baseline != "" {
		if err := rep.compare(o.baseline, w); err != nil {
			return err
		}
	}
	return rep.write(o.out)
}

// preflight says at once what is missing, before minutes of measuring.
func preflight(o options) error {
	for _, s := range o.systems {
		switch s {
		case "zookeeper":
			if _, err := realzk.ClassPath(); err != nil {
				return fmt.Errorf("cannot measure Apache ZooKeeper: %w (or run --systems ours)", err)
			}
		case "ours":
			if _, err := os.Stat(o.server); err != nil {
				return fmt.Errorf("the server binary %s: %w (make bench builds it)", o.server, err)
			}
		}
	}
	return nil
}

func start(o options, sys, dir string) (ensemble, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if sys == "zookeeper" {
		return startZK(dir, o.set)
	}
	return startOurs(o.server, dir, o.set)
}

// measure runs the loads, memory and failovers of one system once.
func measure(o options, rep *report, sys string, run int, dir string, w io.Writer) error {
	fsync := ""
	if o.set.noFsync {
		fsync = ", forceSync=no"
	}
	fmt.Fprintf(w, "run %d/%d, %s: starting 3 servers (tickTime %d%s) in %s\n", run, o.runs, sys, o.set.tickTime, fsync, dir)
	e, err := start(o, sys, filepath.Join(dir, "loads"))
	if err != nil {
		return err
	}
	defer e.stop()
	stages, disks := watchStages(e), watchDisks(e)
	for _, l := range loads {
		if o.only != "" && !strings.Contains(l.name, o.only) {
			continue
		}
		s, err := runLoad(e, l, o)
		if err != nil {
			return fmt.Errorf("%s, run %d, %s: %w", sys, run, l.name, err)
		}
		rep.add(sys, run, l.name, s)
		fmt.Fprintf(w, "  %-38s %9.0f ops/s  p50 %6.2f ms  p99 %6.2f ms  (%d errors)\n",
			l.name, float64(s.ops)/s.seconds, ms(s.p50), ms(s.p99), s.errors)
	}
	stages.print(w)
	disks.print(w)
	if err := rep.addRSS(sys, run, e.pids()); err != nil {
		return err
	}
	if err := followerKill(e, rep, sys, run, w); err != nil {
		return err
	}
	e.stop()
	for k := 1; k <= o.trials; k++ {
		d, err := leaderKill(o, sys, filepath.Join(dir, fmt.Sprintf("failover%d", k)))
		rep.addFailover(sys, run, "leader", d, err)
		fmt.Fprintf(w, "  kill -9 of the leader, trial %d: %v %v\n", k, d.Round(time.Millisecond), errText(err))
	}
	return nil
}

// runLoad opens l's clients, spread over the servers, and drives l.
func runLoad(e ensemble, l load, o options) (sample, error) {
	addrs := e.addrs()
	cs := make([]*zk.Conn, 0, l.clients)
	defer func() {
		for _, c := range cs {
			c.Close()
		}
	}()
	for i := 0; i < l.clients; i++ {
		c, err := connect([]string{addrs[i%len(addrs)]}, 10*time.Second)
		if err != nil {
			return sample{}, err
		}
		cs = append(cs, c)
	}
	if err := l.prepare(cs, make([]byte, l.value)); err != nil {
		return sample{}, err
	}
	pids := e.pids()
	return drive(cs, l, o.warmup, o.duration, func() float64 { return cpuSeconds(pids) }), nil
}

func followerKill(e ensemble, rep *report, sys string, run int, w io.Writer) error {
	l, err := leader(e, 30*time.Second)
	if err != nil {
		return err
	}
	f := []int{(l + 1) % 3, (l + 2) % 3}
	d, err := failover(e, f[1], []string{e.addrs()[f[0]]})
	rep.addFailover(sys, run, "follower", d, err)
	fmt.Fprintf(w, "  kill -9 of a follower (client on the other): %v %v\n", d.Round(time.Millisecond), errText(err))
	return nil
}

func leaderKill(o options, sys, dir string) (time.Duration, error) {
	e, err := start(o, sys, dir)
	if err != nil {
		return 0, err
	}
	defer e.stop()
	l, err := leader(e, 30*time.Second)
	if err != nil {
		return 0, err
	}
	return failover(e, l, []string{e.addrs()[(l+1)%3], e.addrs()[(l+2)%3]})
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return "FAILED: " + err.Error()
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
