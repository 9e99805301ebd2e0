package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestProcReadingsOfThisProcess(t *testing.T) {
	busy := time.Now().Add(50 * time.Millisecond)
	for time.Now().Before(busy) { // burn some CPU so the reading cannot be zero
	}
	if s := cpuSeconds([]int{os.Getpid()}); s <= 0 {
		t.Errorf("cpuSeconds of this process = %v, want > 0", s)
	}
	if s := cpuSeconds([]int{1 << 30}); s != 0 {
		t.Errorf("cpuSeconds of a pid that does not exist = %v, want 0", s)
	}
	m, err := rssMiB(os.Getpid())
	if err != nil || m < 1 || m > 4096 {
		t.Errorf("rssMiB of this process = %v, %v; want a few MiB", m, err)
	}
	if _, err := rssMiB(1 << 30); err == nil || !strings.Contains(err.Error(), "pid 1073741824") {
		t.Errorf("rssMiB of a missing pid: error %v, want one naming the pid", err)
	}
}

func TestTableRatiosNoiseAndBaseline(t *testing.T) {
	r := &report{TickTime: 2000, Duration: "10s", Runs: 2, CPUs: 2}
	name := loads[0].name
	for _, x := range []struct {
		sys  string
		run  int
		ops  int
		p99  time.Duration
		cpuS float64
		clnS float64 // the load generator's CPU seconds
	}{{"zookeeper", 1, 1000, 40 * time.Millisecond, 1, 0.5}, {"ours", 1, 3000, 10 * time.Millisecond, 1.5, 0.6},
		{"zookeeper", 2, 1100, 40 * time.Millisecond, 1, 0.5}, {"ours", 2, 2900, 10 * time.Millisecond, 1.5, 0.6}} {
		r.add(x.sys, x.run, name, sample{ops: x.ops, seconds: 1, p99: x.p99, after: x.cpuS, clientAfter: x.clnS})
	}
	r.RSS = []rssRow{{System: "zookeeper", Run: 1, MiB: []float64{300, 320, 340}}, {System: "ours", Run: 1, MiB: []float64{40, 40, 40}}}
	r.addFailover("zookeeper", 1, "leader", 800*time.Millisecond, nil)
	r.addFailover("ours", 1, "leader", 200*time.Millisecond, nil)
	var out bytes.Buffer
	r.print(&out)
	for _, want := range []string{
		"| " + name + " | 1000 | 3000 | 3.00× | 2.64× | 10 % / 3 % |",
		"40.0 / 10.0",
		"| 1000 / 500 |", // CPU µs per op: 1 s over 1,000 ops, 1.5 s over 3,000
		// the load generator's: 0.5 s over 1,000 ops, 0.6 s over 3,000;
		// alone on 2 CPUs it makes 10,000 ops/s, 10× ZooKeeper's 1,000
		"| 500 / 200 | 10.0× |",
		"ours / ZooKeeper 0.12",
		"zookeeper median 800 of [800]; ours median 200 of [200]; ours / ZooKeeper 0.25",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}

	file := filepath.Join(t.TempDir(), "base.json")
	if err := r.write(file); err != nil {
		t.Fatal(err)
	}
	now := &report{}
	now.add("zookeeper", 1, name, sample{ops: 2000, seconds: 1})
	now.add("ours", 1, name, sample{ops: 9000, seconds: 1})
	out.Reset()
	if err := now.compare(file, &out); err != nil {
		t.Fatal(err)
	}
	if want := "| " + name + " | 2.00 | 3.00 | 3.00× → 4.50× |"; !strings.Contains(out.String(), want) {
		t.Errorf("comparison lacks %q:\n%s", want, out.String())
	}
	if err := now.compare(filepath.Join(t.TempDir(), "none.json"), &out); err == nil || !strings.Contains(err.Error(), "none.json") {
		t.Errorf("a missing baseline: error %v, want one naming the file", err)
	}
}

func TestFlagsRefuseNonsense(t *testing.T) {
	for _, args := range [][]string{{"--systems", "etcd"}, {"--systems", "ours,ours,zookeeper"}, {"--runs", "0"}, {"extra"}, {"--duration", "0s"}} {
		var stderr bytes.Buffer
		if _, err := parseFlags(args, &stderr); err == nil || !strings.Contains(stderr.String(), "usage: mwzk-bench") {
			t.Errorf("%v: error %v, usage printed: %v", args, err, strings.Contains(stderr.String(), "usage"))
		}
	}
	o, err := parseFlags(nil, &bytes.Buffer{})
	if err != nil || o.set != (settings{2000, 10, 5, false}) || o.runs != 2 {
		t.Errorf("defaults: %+v, %v; want ZooKeeper's ticks and two runs", o, err)
	}
}

// A bench of one system (--systems ours) prints no empty ratio table, no
// footnote for it and no line without numbers.
func TestOneSystemPrintsNoEmptyTable(t *testing.T) {
	r := &report{TickTime: 2000, Duration: "3s", Runs: 1, CPUs: 2}
	r.add("ours", 1, loads[0].name, sample{ops: 3000, seconds: 1, p99: 10 * time.Millisecond})
	r.RSS = []rssRow{{System: "ours", Run: 1, MiB: []float64{40, 42, 44}}}
	r.addFailover("ours", 1, "follower", 3*time.Millisecond, nil)
	var out bytes.Buffer
	r.print(&out)
	got := out.String()
	for _, bad := range []string{"| load |", "²", "ZooKeeper []", "ms:\n", ";\n", "kill -9 of the leader"} {
		if strings.Contains(got, bad) {
			t.Errorf("output holds %q:\n%s", bad, got)
		}
	}
	for _, want := range []string{"no load was measured on both systems", "ours [42]", "kill -9 of the follower → next acknowledged write, ms: ours median 3 of [3]\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// A system whose every failover trial failed has no time: no median, which
// would read as 0 ms, the best failover there is (from the final review).
func TestAllFailedFailoversShowNoMedian(t *testing.T) {
	r := &report{TickTime: 2000, Duration: "3s", Runs: 1, CPUs: 2}
	r.addFailover("ours", 1, "leader", 0, errors.New("no write acknowledged within 30 s"))
	r.addFailover("ours", 2, "leader", 0, errors.New("no write acknowledged within 30 s"))
	var out bytes.Buffer
	r.print(&out)
	if got := out.String(); strings.Contains(got, "median") || !strings.Contains(got, "ours: all 2 trials failed") {
		t.Errorf("failover line:\n%s", got)
	}
}
