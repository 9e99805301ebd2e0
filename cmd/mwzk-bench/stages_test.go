package main

import (
	"bytes"
	"math"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// A scrape as the leader's /metrics writes it: buckets of two roles
// (only the leader's count), other metrics in between.
const sampleBefore = `# HELP mwzk_write_stage_seconds One client write's time per stage.
# TYPE mwzk_write_stage_seconds histogram
mwzk_write_stage_seconds_bucket{role="leader",stage="fsync",le="0.001"} 10
mwzk_write_stage_seconds_bucket{role="leader",stage="fsync",le="0.002"} 10
mwzk_write_stage_seconds_bucket{role="leader",stage="fsync",le="0.004"} 10
mwzk_write_stage_seconds_bucket{role="leader",stage="fsync",le="+Inf"} 10
mwzk_write_stage_seconds_bucket{role="leader",stage="total",le="0.001"} 0
mwzk_write_stage_seconds_bucket{role="leader",stage="total",le="0.002"} 10
mwzk_write_stage_seconds_bucket{role="leader",stage="total",le="0.004"} 10
mwzk_write_stage_seconds_bucket{role="leader",stage="total",le="+Inf"} 10
znodes 12
`

const sampleAfter = `# TYPE mwzk_write_stage_seconds histogram
mwzk_write_stage_seconds_bucket{role="follower",stage="fsync",le="0.001"} 500
mwzk_write_stage_seconds_bucket{role="follower",stage="fsync",le="+Inf"} 500
mwzk_write_stage_seconds_bucket{role="leader",stage="fsync",le="0.001"} 10
mwzk_write_stage_seconds_bucket{role="leader",stage="fsync",le="0.002"} 110
mwzk_write_stage_seconds_bucket{role="leader",stage="fsync",le="0.004"} 110
mwzk_write_stage_seconds_bucket{role="leader",stage="fsync",le="+Inf"} 110
mwzk_write_stage_seconds_sum{role="leader",stage="fsync"} 0.2
mwzk_write_stage_seconds_bucket{role="leader",stage="total",le="0.001"} 0
mwzk_write_stage_seconds_bucket{role="leader",stage="total",le="0.002"} 10
mwzk_write_stage_seconds_bucket{role="leader",stage="total",le="0.004"} 60
mwzk_write_stage_seconds_bucket{role="leader",stage="total",le="+Inf"} 110
`

// TestStageTableFromSample: the table counts only the writes between the
// two scrapes, on the leader, and estimates quantiles within buckets as
// histogram_quantile does; a stage without samples shows "-".
func TestStageTableFromSample(t *testing.T) {
	before, err := parseStages(strings.NewReader(sampleBefore), "leader")
	if err != nil {
		t.Fatal(err)
	}
	after, err := parseStages(strings.NewReader(sampleAfter), "leader")
	if err != nil {
		t.Fatal(err)
	}
	// The follower's buckets are its own, never mixed with the leader's.
	fol, err := parseStages(strings.NewReader(sampleAfter), "follower")
	if err != nil {
		t.Fatal(err)
	}
	if bs := fol["fsync"]; len(bs) != 2 || bs[1].count != 500 || len(fol) != 1 {
		t.Errorf("follower's stages %v, want only fsync with 500 samples", fol)
	}
	var out bytes.Buffer
	printStages(&out, after.since(before))
	for _, want := range []string{
		"  write stages on the leader (p50 / p99 / p999 ms), 100 writes:\n",
		// 100 fsyncs, all in (1 ms, 2 ms]: the median halfway, p99 and p999 near the top.
		"    fsync       1.500 /    1.990 /    1.999\n",
		// 50 totals in (2, 4] ms and 50 above 4 ms: p50 at 4, p99 the largest finite bound.
		"    total       4.000 /    4.000 /    4.000\n",
		"    propose         -\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

// TestStageScrapeOfRealHistogram: what client_golang itself writes for a
// histogram like the server's parses back to the same counts.
func TestStageScrapeOfRealHistogram(t *testing.T) {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "mwzk_write_stage_seconds", Help: "test",
		Buckets: prometheus.ExponentialBuckets(0.00001, 2, 22)}, []string{"role", "stage"})
	reg := prometheus.NewRegistry()
	reg.MustRegister(h)
	for i := 1; i <= 100; i++ {
		h.WithLabelValues("leader", "total").Observe(float64(i) / 1e4) // 0.1 ms to 10 ms
		h.WithLabelValues("follower", "total").Observe(1)
	}
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()
	got, err := scrapeStages(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	bs := got["total"]
	if n := len(bs); n != 23 || bs[n-1].count != 100 || !math.IsInf(bs[n-1].le, 1) {
		t.Fatalf("parsed %d buckets ending %+v; want 22 bounds and +Inf with the leader's 100 samples", n, bs[n-1])
	}
	if p50, _ := quantile(bs, 0.5); p50 < 0.004 || p50 > 0.006 {
		t.Errorf("p50 of 0.1..10 ms = %v s, want about 5 ms", p50)
	}
}
