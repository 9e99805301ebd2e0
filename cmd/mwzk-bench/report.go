package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// report is what a bench measured; written as JSON, it is a later run's
// baseline.
type report struct {
	Date      string        `json:"date"`
	Go        string        `json:"go"`
	CPUs      int           `json:"cpus"`
	TickTime  int           `json:"tickTimeMs"`
	NoFsync   bool          `json:"noFsync,omitempty"` // forceSync=no on both
	Duration  string        `json:"durationPerLoad"`
	Runs      int           `json:"runs"`
	Loads     []loadRow     `json:"loads"`
	RSS       []rssRow      `json:"rss"`
	Failovers []failoverRow `json:"failovers"`
}

type loadRow struct {
	System    string  `json:"system"`
	Run       int     `json:"run"`
	Load      string  `json:"load"`
	OpsPerSec float64 `json:"opsPerSec"`
	P50       float64 `json:"p50ms"`
	P99       float64 `json:"p99ms"`
	P999      float64 `json:"p999ms"`
	CPUPerOp  float64 `json:"cpuMicrosPerOp"` // the three servers' CPU time
	// ClientCPUPerOp is the load generator's CPU time per operation.
	ClientCPUPerOp float64 `json:"clientCpuMicrosPerOp"`
	Errors         int     `json:"errors"`
}

type rssRow struct {
	System string    `json:"system"`
	Run    int       `json:"run"`
	MiB    []float64 `json:"mib"` // per server
}

type failoverRow struct {
	System string  `json:"system"`
	Run    int     `json:"run"`
	Kill   string  `json:"kill"` // leader or follower
	Millis float64 `json:"ms"`
	Error  string  `json:"error,omitempty"`
}

func newReport(o options) *report {
	return &report{Date: time.Now().UTC().Format(time.RFC3339), Go: runtime.Version(), CPUs: runtime.NumCPU(),
		TickTime: o.set.tickTime, NoFsync: o.set.noFsync, Duration: o.duration.String(), Runs: o.runs}
}

func (r *report) add(sys string, run int, name string, s sample) {
	row := loadRow{System: sys, Run: run, Load: name, P50: ms(s.p50), P99: ms(s.p99), P999: ms(s.p999), Errors: s.errors}
	if s.seconds > 0 {
		row.OpsPerSec = float64(s.ops) / s.seconds
	}
	if s.ops > 0 {
		row.CPUPerOp = (s.after - s.cpuBefore) / float64(s.ops) * 1e6
		row.ClientCPUPerOp = (s.clientAfter - s.clientBefore) / float64(s.ops) * 1e6
	}
	r.Loads = append(r.Loads, row)
}

func (r *report) addRSS(sys string, run int, pids []int) error {
	row := rssRow{System: sys, Run: run}
	for _, p := range pids {
		m, err := rssMiB(p)
		if err != nil {
			return err
		}
		row.MiB = append(row.MiB, m)
	}
	r.RSS = append(r.RSS, row)
	return nil
}

func (r *report) addFailover(sys string, run int, kill string, d time.Duration, err error) {
	f := failoverRow{System: sys, Run: run, Kill: kill, Millis: ms(d)}
	if err != nil {
		f.Error = err.Error()
	}
	r.Failovers = append(r.Failovers, f)
}

func (r *report) row(sys string, run int, load string) (loadRow, bool) {
	for _, l := range r.Loads {
		if l.System == sys && l.Run == run && l.Load == load {
			return l, true
		}
	}
	return loadRow{}, false
}

// print writes the side-by-side table: run 1's numbers, each run's ratio,
// and how far the two runs of one system lie apart (the noise). A bench of
// one system has no table; its lines per load said it all.
func (r *report) print(w io.Writer) {
	fsync := ""
	if r.NoFsync {
		fsync = ", forceSync=no (logs never fsynced)"
	}
	fmt.Fprintf(w, "\n3 servers each, tickTime %d ms%s, %s per load, %d CPUs, %s; ratio = ours / ZooKeeper\n\n", r.TickTime, fsync, r.Duration, r.CPUs, r.Go)
	rows, ratios := r.tableRows()
	if len(rows) == 0 {
		fmt.Fprintln(w, "no load was measured on both systems: no ratios (the numbers per load are above)")
	} else {
		fmt.Fprintln(w, "| load | ZooKeeper ops/s | ours ops/s | ratio | ratio, run 2 | noise ZK / ours | p50 ms ZK / ours | p99 ms ZK / ours | p999 ms ZK / ours | CPU µs/op ZK / ours | client CPU µs/op ZK / ours | ceiling ² |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
		for _, row := range rows {
			fmt.Fprintln(w, row)
		}
		fmt.Fprintf(w, "\ngeometric mean of the ratios (run 1): %.2f×\n", geomean(ratios))
		fmt.Fprintf(w, "² the highest ratio our servers could reach if they cost no CPU at all: the load generator alone,\n"+
			"  at its CPU per operation in our run, on all %d CPUs, against ZooKeeper's ops/s. A load whose ratio is near\n"+
			"  it is bound by the load generator, not by the servers.\n", r.CPUs)
	}
	r.printRSS(w)
	r.printFailovers(w)
}

// tableRows are the table's lines, one per load measured on both systems,
// and their run-1 ratios.
func (r *report) tableRows() (rows []string, ratios []float64) {
	for _, l := range loads {
		z, ok1 := r.row("zookeeper", 1, l.name)
		o, ok2 := r.row("ours", 1, l.name)
		if !ok1 || !ok2 {
			continue
		}
		ratio := o.OpsPerSec / z.OpsPerSec
		ratios = append(ratios, ratio)
		second := "–"
		z2, ok3 := r.row("zookeeper", 2, l.name)
		o2, ok4 := r.row("ours", 2, l.name)
		noise := "–"
		if ok3 && ok4 {
			second = fmt.Sprintf("%.2f×", o2.OpsPerSec/z2.OpsPerSec)
			noise = fmt.Sprintf("%.0f %% / %.0f %%", apart(z.OpsPerSec, z2.OpsPerSec), apart(o.OpsPerSec, o2.OpsPerSec))
		}
		rows = append(rows, fmt.Sprintf("| %s | %.0f | %.0f | %.2f× | %s | %s | %.2f / %.2f | %.1f / %.1f | %.1f / %.1f | %.0f / %.0f | %.0f / %.0f | %s |",
			l.name, z.OpsPerSec, o.OpsPerSec, ratio, second, noise, z.P50, o.P50, z.P99, o.P99, z.P999, o.P999, z.CPUPerOp, o.CPUPerOp,
			z.ClientCPUPerOp, o.ClientCPUPerOp, ceiling(r.CPUs, o.ClientCPUPerOp, z.OpsPerSec)))
	}
	return rows, ratios
}

func (r *report) printRSS(w io.Writer) {
	mean := map[string][]float64{}
	for _, x := range r.RSS {
		mean[x.System] = append(mean[x.System], avg(x.MiB))
	}
	z, o := mean["zookeeper"], mean["ours"]
	var parts []string
	if len(z) > 0 {
		parts = append(parts, "ZooKeeper "+floats(z, 0))
	}
	if len(o) > 0 {
		parts = append(parts, "ours "+floats(o, 0))
	}
	if len(parts) == 0 {
		return
	}
	fmt.Fprintf(w, "RSS per server after the loads, MiB (the mean of the three, each run): %s", strings.Join(parts, ", "))
	if len(z) > 0 && len(o) > 0 {
		fmt.Fprintf(w, "; ours / ZooKeeper %.2f", avg(o)/avg(z))
	}
	fmt.Fprintln(w)
}

func (r *report) printFailovers(w io.Writer) {
	for _, kill := range []string{"leader", "follower"} {
		med := map[string]float64{}
		var parts []string
		for _, sys := range []string{"zookeeper", "ours"} {
			var v []float64
			failed := 0
			for _, f := range r.Failovers {
				if f.System == sys && f.Kill == kill {
					if f.Error != "" {
						failed++
						continue
					}
					v = append(v, f.Millis)
				}
			}
			switch {
			case len(v) == 0 && failed == 0:
				continue
			case len(v) == 0:
				parts = append(parts, fmt.Sprintf("%s: all %d trials failed", sys, failed))
				continue
			}
			med[sys] = median(v)
			part := fmt.Sprintf("%s median %.0f of %s", sys, med[sys], floats(v, 0))
			if failed > 0 {
				part += fmt.Sprintf(" (%d failed)", failed)
			}
			parts = append(parts, part)
		}
		if len(parts) == 0 {
			continue // not measured in this bench
		}
		if med["zookeeper"] > 0 && med["ours"] > 0 {
			parts = append(parts, fmt.Sprintf("ours / ZooKeeper %.2f", med["ours"]/med["zookeeper"]))
		}
		fmt.Fprintf(w, "kill -9 of the %s → next acknowledged write, ms: %s\n", kill, strings.Join(parts, "; "))
	}
}

// compare prints how ours and ZooKeeper moved since the baseline's run 1.
func (r *report) compare(file string, w io.Writer) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("baseline: %w", err)
	}
	var base report
	if err := json.Unmarshal(b, &base); err != nil {
		return fmt.Errorf("baseline %s: %w", file, err)
	}
	if base.NoFsync != r.NoFsync {
		fmt.Fprintf(w, "\nthe baseline %s ran with --no-fsync %v, this run with %v: the two measure different things\n", file, base.NoFsync, r.NoFsync)
	}
	fmt.Fprintf(w, "\nagainst the baseline %s (%s): ops/s now / then\n\n| load | ZooKeeper | ours | ratio then → now |\n|---|---|---|---|\n", file, base.Date)
	for _, l := range loads {
		z, ok1 := r.row("zookeeper", 1, l.name)
		o, ok2 := r.row("ours", 1, l.name)
		bz, ok3 := base.row("zookeeper", 1, l.name)
		bo, ok4 := base.row("ours", 1, l.name)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			continue
		}
		fmt.Fprintf(w, "| %s | %.2f | %.2f | %.2f× → %.2f× |\n", l.name, z.OpsPerSec/bz.OpsPerSec, o.OpsPerSec/bo.OpsPerSec,
			bo.OpsPerSec/bz.OpsPerSec, o.OpsPerSec/z.OpsPerSec)
	}
	return nil
}

func (r *report) write(file string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return nil
}

// apart is how far two measurements lie apart, in percent of their mean.
func apart(a, b float64) float64 { return math.Abs(a-b) / ((a + b) / 2) * 100 }

func geomean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(v)))
}

func avg(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 0 { // the mean of the two middles: with two runs, not simply the larger
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}

func floats(v []float64, prec int) string {
	out := "["
	for i, x := range v {
		if i > 0 {
			out += " "
		}
		out += fmt.Sprintf("%.*f", prec, x)
	}
	return out + "]"
}

// ceiling is the ratio to zkOps of a server that costs nothing, where the
// load generator needs clientMicros of CPU per operation on cpus CPUs.
func ceiling(cpus int, clientMicros, zkOps float64) string {
	if clientMicros <= 0 || zkOps <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f×", float64(cpus)*1e6/clientMicros/zkOps)
}
