package server

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"zablab/properties"
	"zablab/zab"
)

// figure is one of the server's monitoring values: mntr prints it as
// zk_<Key>, the admin API's monitor command as a JSON field, /metrics as a
// gauge (numbers only). One list, so the three always agree.
type figure struct {
	Key string
	Val any // int64, float64 or string
}

// monitor gathers the figures, in mntr's order. ZooKeeper's names where
// ZooKeeper has the figure; the Zab layer's as zab_*.
func (s *Server) monitor() []figure {
	st := s.serviceStats()
	lo, avg, hi := s.stats.latencyMs()
	fs := []figure{
		{"version", Version},
		{"server_state", st.Role},
		{"avg_latency", avg},
		{"max_latency", hi},
		{"min_latency", lo},
		{"packets_received", s.stats.received.Load()},
		{"packets_sent", s.stats.sent.Load()},
		{"num_alive_connections", int64(len(s.connList()))},
		{"outstanding_requests", int64(s.outstanding())},
		{"znode_count", int64(st.Nodes)},
		{"watch_count", int64(st.Watches)},
		{"ephemerals_count", int64(st.Ephemerals)},
		{"approximate_data_size", st.DataSize},
		{"open_file_descriptor_count", openFiles()},
		{"max_file_descriptor_count", maxFiles()},
		{"global_sessions", int64(st.Sessions)},
		{"uptime", s.uptime().Milliseconds()},
		{"last_proposal_zxid", fmt.Sprintf("0x%x", st.Zxid)},
	}
	return append(fs, s.zabFigures(st.Role)...)
}

// zabFigures are the Zab layer's: quorum size and epoch always, the
// followers on a leader (as ZooKeeper's mntr shows them only there).
func (s *Server) zabFigures(role string) []figure {
	f, ok := zab.PeerFigures(s.ID())
	if !ok {
		return nil
	}
	fs := []figure{{"quorum_size", int64(f.Quorum)}, {"zab_epoch", int64(f.Epoch)},
		{"zab_elections", int64(f.Elections)}}
	if role == "leader" {
		fs = append(fs, figure{"learners", int64(len(f.Followers))},
			figure{"synced_followers", int64(f.SyncedFollowers)})
		var lag int64
		for _, fl := range f.Followers {
			lag = max(lag, int64(fl.Lag))
		}
		fs = append(fs, figure{"zab_max_follower_lag", lag})
	}
	return fs
}

// ID is the peer's id as Zab reads it: a lone peer (no peer<i> keys; an
// ensemble's peer must have myid) without the key is peer 1. It parses with
// Zab's getter (properties.Int, a sign allowed), so that "myid=+1", which
// Zab runs as peer 1, is 1 in every admin view too; a value Zab refuses
// never gets this far.
func (s *Server) ID() uint64 { return peerID(s.props) }

func peerID(p *properties.Properties) uint64 {
	id, err := p.Int("myid", 1)
	if err != nil || id < 0 {
		return 0
	}
	return uint64(id)
}

func (s *Server) uptime() time.Duration {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.start.IsZero() {
		return 0
	}
	return time.Since(s.start)
}

// openFiles counts the process's open files (Linux; 0 elsewhere).
func openFiles() int64 {
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0
	}
	return int64(len(es))
}

// maxFiles is the process's limit of open files (Linux; 0 elsewhere).
func maxFiles() int64 {
	b, err := os.ReadFile("/proc/self/limits")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 5 && strings.HasPrefix(line, "Max open files") {
			n, _ := strconv.ParseInt(f[3], 10, 64)
			return n
		}
	}
	return 0
}
