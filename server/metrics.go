package server

import (
	"net/http"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"zablab/zab"
)

// metricsHandler serves /metrics in Prometheus's text format: the
// server's figures under ZooKeeper's metric names (the numbers mntr
// prints), the Zab layer's histograms and gauges (zab_*), and the Go
// runtime's and the process's.
func (s *Server) metricsHandler() http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(figureCollector{s}, writeStageSeconds, collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, c := range zab.Collectors() {
		reg.MustRegister(c)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	return mux
}

// figureCollector turns the numeric figures of monitor into gauges at
// each scrape. It describes nothing up front (an unchecked collector):
// the set of figures depends on the role (a leader has more).
type figureCollector struct{ s *Server }

func (figureCollector) Describe(chan<- *prometheus.Desc) {}

func (c figureCollector) Collect(ch chan<- prometheus.Metric) {
	for _, f := range c.s.monitor() {
		if strings.HasPrefix(f.Key, "zab_") {
			continue // the Zab layer's own collectors have them, per peer
		}
		var v float64
		switch x := f.Val.(type) {
		case int64:
			v = float64(x)
		case float64:
			v = x
		default:
			continue // version, state, zxid: not numbers
		}
		d := prometheus.NewDesc(metricName(f.Key), figureHelp(f.Key), nil, nil)
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v)
	}
}

// metricName is ZooKeeper's name for a figure, except that a gauge may
// not end in _count (promtool's check refuses it, and ZooKeeper's own
// provider fails that check): znode_count is znodes, watch_count
// watches, and so on.
func metricName(key string) string {
	if n, ok := renamed[key]; ok {
		return n
	}
	return key
}

var renamed = map[string]string{
	"znode_count": "znodes", "watch_count": "watches", "ephemerals_count": "ephemerals",
	"open_file_descriptor_count": "open_file_descriptors", "max_file_descriptor_count": "max_file_descriptors",
}

// figureHelp says what a figure is, for /metrics' HELP lines.
func figureHelp(key string) string {
	if h, ok := figureHelps[key]; ok {
		return h
	}
	return strings.ReplaceAll(key, "_", " ") + " (as mntr's zk_" + key + ")"
}

var figureHelps = map[string]string{
	"avg_latency":           "Average request latency in ms since start or srst.",
	"max_latency":           "Largest request latency in ms since start or srst.",
	"min_latency":           "Smallest request latency in ms since start or srst.",
	"packets_received":      "Frames read from clients since start or srst.",
	"packets_sent":          "Replies and events sent to clients since start or srst.",
	"num_alive_connections": "Client connections open now.",
	"outstanding_requests":  "Requests read and not yet answered.",
	"znode_count":           "Znodes in the tree, / included.",
	"watch_count":           "Watches left by this server's sessions.",
	"ephemerals_count":      "Ephemeral znodes.",
	"approximate_data_size": "Bytes of znode data and names.",
	"global_sessions":       "Sessions in the replicated state.",
	"uptime":                "Milliseconds since the server started.",
	"quorum_size":           "Voters that make a quorum.",
	"synced_followers":      "Followers taking part in broadcast (on the leader).",
	"learners":              "Followers connected to the leader (on the leader).",
}
