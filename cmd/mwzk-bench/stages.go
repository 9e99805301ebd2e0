package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"zablab/server"
)

// Where our writes' time goes: the leader's mwzk_write_stage_seconds
// histograms (server/stages.go), scraped from its /metrics before and after
// the loads; the difference is what the loads' writes spent per stage.

const stageMetric = "mwzk_write_stage_seconds"

// bucket is one cumulative bucket of a histogram: count samples ≤ le.
type bucket struct {
	le    float64
	count float64
}

// stageHists are the leader's stage histograms, by stage.
type stageHists map[string][]bucket

// scrapeStages reads the stage histograms from a /metrics address.
func scrapeStages(url string) (h stageHists, err error) {
	err = scrape(url, func(r io.Reader) error {
		h, err = parseStages(r, "leader")
		return err
	})
	return h, err
}

// scrape GETs a /metrics address and hands the body to parse.
func scrape(url string, parse func(io.Reader) error) error {
	cl := http.Client{Timeout: 10 * time.Second}
	resp, err := cl.Get(url)
	if err != nil {
		return fmt.Errorf("bench: scrape %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("bench: scrape %s: %s", url, resp.Status)
	}
	return parse(resp.Body)
}

// parseStages takes the buckets of role's stages from Prometheus's text
// format (Prometheus's own parser), with +Inf as the last bucket.
func parseStages(r io.Reader, role string) (stageHists, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(r)
	if err != nil {
		return nil, fmt.Errorf("bench: metrics: %w", err)
	}
	h := stageHists{}
	fam := fams[stageMetric]
	if fam == nil {
		return h, nil
	}
	for _, m := range fam.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		if labels["role"] != role || m.GetHistogram() == nil {
			continue
		}
		var bs []bucket
		for _, b := range m.GetHistogram().GetBucket() {
			bs = append(bs, bucket{le: b.GetUpperBound(), count: float64(b.GetCumulativeCount())})
		}
		if len(bs) == 0 || !math.IsInf(bs[len(bs)-1].le, 1) {
			bs = append(bs, bucket{le: math.Inf(1), count: float64(m.GetHistogram().GetSampleCount())})
		}
		h[labels["stage"]] = bs
	}
	return h, nil
}

// since is h minus an earlier scrape: the samples taken in between.
func (h stageHists) since(before stageHists) stageHists {
	out := stageHists{}
	for st, bs := range h {
		prev := map[float64]float64{}
		for _, b := range before[st] {
			prev[b.le] = b.count
		}
		for _, b := range bs {
			out[st] = append(out[st], bucket{le: b.le, count: b.count - prev[b.le]})
		}
	}
	return out
}

// quantile estimates the q-quantile as Prometheus's histogram_quantile
// does: linear within the bucket it falls in, the largest finite bound if
// it falls in +Inf. ok is false without samples.
func quantile(bs []bucket, q float64) (v float64, ok bool) {
	if len(bs) == 0 || bs[len(bs)-1].count <= 0 {
		return 0, false
	}
	rank := q * bs[len(bs)-1].count
	lo, below := 0.0, 0.0
	for _, b := range bs {
		if b.count >= rank {
			if math.IsInf(b.le, 1) {
				return lo, true
			}
			if b.count == below {
				return b.le, true
			}
			return lo + (b.le-lo)*(rank-below)/(b.count-below), true
		}
		lo, below = b.le, b.count
	}
	return lo, true
}

// printStages prints the table of our leader's write stages.
func printStages(w io.Writer, h stageHists) {
	total := h["total"]
	if len(total) == 0 || total[len(total)-1].count == 0 {
		// Stages are timed where a write arrives; a client on a follower
		// (the single client's server is a follower unless it leads) has none.
		fmt.Fprintln(w, "  write stages on the leader: no write came to the leader (its clients were on followers)")
		return
	}
	fmt.Fprintf(w, "  write stages on the leader (p50 / p99 / p999 ms), %.0f writes:\n", total[len(total)-1].count)
	for _, st := range server.StageNames {
		p50, ok := quantile(h[st], 0.5)
		p99, _ := quantile(h[st], 0.99)
		p999, _ := quantile(h[st], 0.999)
		if !ok {
			fmt.Fprintf(w, "    %-8s %8s\n", st, "-")
			continue
		}
		fmt.Fprintf(w, "    %-8s %8.3f / %8.3f / %8.3f\n", st, p50*1e3, p99*1e3, p999*1e3)
	}
}

// stageWatch scrapes our leader before the loads and prints what its
// writes spent per stage after them; for ZooKeeper it does nothing.
type stageWatch struct {
	e      *ourEnsemble
	leader int
	before stageHists
	err    error
}

func watchStages(e ensemble) *stageWatch {
	oe, ok := e.(*ourEnsemble)
	if !ok {
		return nil
	}
	s := &stageWatch{e: oe}
	s.leader, s.before, s.err = oe.leaderStages()
	return s
}

// print prints the table, or why there is none: a failed scrape or a
// leader change costs the table, not the bench's other figures.
func (s *stageWatch) print(w io.Writer) {
	if s == nil {
		return
	}
	l, after, err := s.e.leaderStages()
	switch {
	case s.err != nil || err != nil:
		fmt.Fprintf(w, "  write stages on the leader: %v\n", errors.Join(s.err, err))
	case l != s.leader:
		fmt.Fprintf(w, "  write stages on the leader: the leader changed (server %d, then %d)\n", s.leader+1, l+1)
	default:
		printStages(w, after.since(s.before))
	}
}

// leaderStages scrapes the leader's stage histograms.
func (o *ourEnsemble) leaderStages() (int, stageHists, error) {
	l, err := leader(o, 30*time.Second)
	if err != nil {
		return -1, nil, err
	}
	h, err := scrapeStages(o.metrics[l])
	return l, h, err
}
