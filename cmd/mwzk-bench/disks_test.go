package main

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// A peer's group commits as client_golang writes them parse back to their
// count, time and entries, and the line per server reports the difference
// between two scrapes over the time between them.
func TestLogSyncLinesFromRealHistograms(t *testing.T) {
	secs := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "zab_fsync_seconds", Help: "test",
		Buckets: prometheus.ExponentialBuckets(0.00005, 2, 18)}, []string{"peer"})
	entries := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "zab_fsync_batch_entries", Help: "test",
		Buckets: prometheus.ExponentialBuckets(1, 2, 12)}, []string{"peer"})
	reg := prometheus.NewRegistry()
	reg.MustRegister(secs, entries)
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()
	sync := func(n int, each time.Duration, batch int) {
		for i := 0; i < n; i++ {
			secs.WithLabelValues("2").Observe(each.Seconds())
			entries.WithLabelValues("2").Observe(float64(batch))
		}
	}
	sync(10, time.Millisecond, 3) // before the loads: not counted
	before, err := scrapeLogSyncs(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	sync(400, 2*time.Millisecond, 5) // 0.8 s of syncs
	after, err := scrapeLogSyncs(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	printLogSyncs(&out, []logSyncs{before, {}}, []logSyncs{after, {}}, 4*time.Second, false)
	for _, want := range []string{
		"log syncs per server over the loads (4 s,",
		"server 1:      400 syncs,   5.0 entries and  2.000 ms each, syncing  20 % of the time",
		"server 2: none",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("lines lack %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	printLogSyncs(&out, []logSyncs{before, {}}, []logSyncs{after, {}}, 4*time.Second, true)
	for _, want := range []string{
		"log writes (forceSync=no: written, never fsynced) per server",
		"server 1:      400 writes,   5.0 entries and  2.000 ms each, writing  20 % of the time",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("with --no-fsync, lines lack %q:\n%s", want, out.String())
		}
	}
}
