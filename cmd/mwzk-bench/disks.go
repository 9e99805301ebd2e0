package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// What the peers' logs did during the loads: each server's
// zab_fsync_seconds and zab_fsync_batch_entries (zab/metrics.go), scraped
// before and after. On one shared disk the three peers' flushes queue
// behind each other, and these lines show it: how often each peer synced,
// how many entries one sync carried, how long one took and what share of
// the time the peer's disk writer spent in them.

// logSyncs sums a peer's group commits: how many, their time, their entries.
type logSyncs struct{ count, seconds, entries float64 }

func (a logSyncs) minus(b logSyncs) logSyncs {
	return logSyncs{a.count - b.count, a.seconds - b.seconds, a.entries - b.entries}
}

// parseLogSyncs reads the two histograms' counts and sums from
// Prometheus's text format; a process without them has zero.
func parseLogSyncs(r io.Reader) (logSyncs, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(r)
	if err != nil {
		return logSyncs{}, fmt.Errorf("bench: metrics: %w", err)
	}
	var s logSyncs
	if f := fams["zab_fsync_seconds"]; f != nil {
		for _, m := range f.GetMetric() {
			s.count += float64(m.GetHistogram().GetSampleCount())
			s.seconds += m.GetHistogram().GetSampleSum()
		}
	}
	if f := fams["zab_fsync_batch_entries"]; f != nil {
		for _, m := range f.GetMetric() {
			s.entries += m.GetHistogram().GetSampleSum()
		}
	}
	return s, nil
}

func scrapeLogSyncs(url string) (s logSyncs, err error) {
	err = scrape(url, func(r io.Reader) error {
		s, err = parseLogSyncs(r)
		return err
	})
	return s, err
}

// diskWatch scrapes our three servers before the loads and prints what
// their logs did after them; for ZooKeeper it does nothing.
type diskWatch struct {
	e      *ourEnsemble
	start  time.Time
	before []logSyncs
	err    error
}

func watchDisks(e ensemble) *diskWatch {
	oe, ok := e.(*ourEnsemble)
	if !ok {
		return nil
	}
	d := &diskWatch{e: oe, start: time.Now()}
	d.before, d.err = oe.logSyncs()
	return d
}

func (o *ourEnsemble) logSyncs() ([]logSyncs, error) {
	var all []logSyncs
	for _, url := range o.metrics {
		s, err := scrapeLogSyncs(url)
		if err != nil {
			return nil, err
		}
		all = append(all, s)
	}
	return all, nil
}

// print writes a line per server; a failed scrape costs the lines only.
func (d *diskWatch) print(w io.Writer) {
	if d == nil {
		return
	}
	after, err := d.e.logSyncs()
	if err = errors.Join(d.err, err); err != nil {
		fmt.Fprintf(w, "  log syncs (or writes): %v\n", err)
		return
	}
	printLogSyncs(w, d.before, after, time.Since(d.start), d.e.noFsync)
}

// printLogSyncs prints the lines; with noFsync (forceSync=no) the same
// figures count the log's writes, which were never fsynced.
func printLogSyncs(w io.Writer, before, after []logSyncs, took time.Duration, noFsync bool) {
	what, doing := "syncs", "syncing"
	if noFsync {
		what, doing = "writes", "writing"
		fmt.Fprintf(w, "  log writes (forceSync=no: written, never fsynced) per server over the loads (%.0f s, preparation and warm-ups included):\n", took.Seconds())
	} else {
		fmt.Fprintf(w, "  log syncs per server over the loads (%.0f s, preparation and warm-ups included):\n", took.Seconds())
	}
	for i := range after {
		s := after[i].minus(before[i])
		if s.count <= 0 {
			fmt.Fprintf(w, "    server %d: none\n", i+1)
			continue
		}
		fmt.Fprintf(w, "    server %d: %8.0f %s, %5.1f entries and %6.3f ms each, %s %3.0f %% of the time\n",
			i+1, s.count, what, s.entries/s.count, s.seconds/s.count*1e3, doing, 100*s.seconds/took.Seconds())
	}
}
