package server

import (
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"zablab/zab"
)

// adminCommands are the admin API's commands: ZooKeeper 3.8's primary
// names, then their aliases.
func adminCommands() []adminCommand {
	return []adminCommand{
		{[]string{"monitor", "mntr"}, (*Server).adminMonitor},
		{[]string{"ruok"}, func(*Server) map[string]any { return map[string]any{} }},
		{[]string{"stats", "stat"}, func(s *Server) map[string]any { return s.adminStat(true) }},
		{[]string{"server_stats", "srvr"}, func(s *Server) map[string]any { return s.adminStat(false) }},
		{[]string{"configuration", "conf", "config"}, (*Server).adminConf},
		{[]string{"connections", "cons"}, (*Server).adminCons},
		{[]string{"environment", "envi", "env"}, adminEnvi},
		{[]string{"dirs"}, (*Server).adminDirs},
		{[]string{"dump"}, (*Server).adminDump},
		{[]string{"watch_summary", "wchs"}, (*Server).adminWatchSummary},
		{[]string{"watches", "wchc"}, (*Server).adminWatches},
		{[]string{"watches_by_path", "wchp"}, (*Server).adminWatchesByPath},
		{[]string{"leader", "lead"}, (*Server).adminLeader},
		{[]string{"voting_view"}, (*Server).adminVotingView},
		{[]string{"is_read_only", "isro"}, func(s *Server) map[string]any { return map[string]any{"read_only": s.isReadOnly()} }},
		{[]string{"last_snapshot", "lsnp"}, (*Server).adminLastSnapshot},
		{[]string{"initial_configuration", "icfg"}, (*Server).adminInitialConfig},
		{[]string{"stat_reset", "srst"}, func(s *Server) map[string]any { s.stats.reset(); return map[string]any{} }},
		{[]string{"connection_stat_reset", "crst"}, func(s *Server) map[string]any { s.resetConnStats(); return map[string]any{} }},
	}
}

// notServingJSON is ZooKeeper's answer while the server takes no requests.
func notServingJSON() map[string]any {
	return map[string]any{"error": strings.TrimSpace(notServing)}
}

func (s *Server) adminMonitor() map[string]any {
	out := map[string]any{}
	for _, f := range s.monitor() {
		out[f.Key] = f.Val
	}
	return out
}

func (s *Server) adminStat(withConns bool) map[string]any {
	if !s.answering() {
		return notServingJSON()
	}
	st := s.serviceStats()
	lo, avg, hi := s.stats.latencyMs()
	data, log := s.dirSizes()
	out := map[string]any{
		"version":   Version,
		"read_only": s.isReadOnly(),
		"server_stats": map[string]any{
			"packets_sent": s.stats.sent.Load(), "packets_received": s.stats.received.Load(),
			"server_state": st.Role, "outstanding_requests": s.outstanding(),
			"data_dir_size": data, "log_dir_size": log,
			"last_processed_zxid": st.Zxid, "num_alive_client_connections": len(s.connList()),
			"avg_latency": avg, "max_latency": hi, "min_latency": lo,
			"uptime": s.uptime().Milliseconds(),
		},
		"node_count": st.Nodes,
	}
	if withConns {
		out["connections"] = s.connJSON()
		out["secure_connections"] = []any{}
	}
	return out
}

func (s *Server) connJSON() []map[string]any {
	out := []map[string]any{}
	for _, c := range s.connList() {
		c.mu.Lock()
		queued := len(c.pending) - c.head
		c.mu.Unlock()
		out = append(out, map[string]any{
			"remote_socket_address": c.remote, "outstanding_requests": queued,
			"packets_received": c.recv.Load(), "packets_sent": c.sent.Load(),
			"session_id": sessionHex(c.session.Load()), "session_timeout": c.timeout.Load(),
		})
	}
	return out
}

func (s *Server) adminCons() map[string]any {
	return map[string]any{"connections": s.connJSON(), "secure_connections": []any{}}
}

func (s *Server) adminConf() map[string]any {
	data, log := s.dirSizes()
	return map[string]any{
		"client_port": s.cfg.ClientPort, "client_port_address": s.cfg.ClientPortAddress,
		"data_dir": s.snapDir(), "data_dir_size": data,
		"data_log_dir": s.logDir(), "data_log_size": log,
		"tick_time": s.cfg.TickTime.Milliseconds(), "max_client_cnxns": s.cfg.MaxClientCnxns,
		"min_session_timeout": s.cfg.MinSessionTimeout.Milliseconds(),
		"max_session_timeout": s.cfg.MaxSessionTimeout.Milliseconds(),
		"server_id":           s.ID(),
		"force_sync":          s.forceSync(),
	}
}

// forceSync is the peer's forceSync key, yes or no (Zab refused any other
// value before the server started).
func (s *Server) forceSync() string { return trim(s.props.String(zab.KeyForceSync, "yes")) }

func adminEnvi(*Server) map[string]any {
	host, _ := os.Hostname()
	wd, _ := os.Getwd()
	return map[string]any{"zookeeper.version": Version, "host.name": host, "go.version": runtime.Version(),
		"os.name": runtime.GOOS, "os.arch": runtime.GOARCH, "user.dir": wd, "process.id": os.Getpid()}
}

func (s *Server) adminDirs() map[string]any {
	data, log := s.dirSizes()
	return map[string]any{"datadir_size": data, "logdir_size": log}
}

func (s *Server) adminDump() map[string]any {
	d := s.details()
	eph, timeouts := map[string]any{}, map[string]any{}
	for sid, paths := range d.Ephemerals {
		eph[sessionHex(sid)] = paths
	}
	for sid, to := range d.Sessions {
		timeouts[sessionHex(sid)] = to.Milliseconds()
	}
	return map[string]any{"session_id_to_ephemeral_paths": eph, "session_id_to_timeout": timeouts}
}

func (s *Server) adminWatchSummary() map[string]any {
	d := s.details()
	return map[string]any{"num_connections": len(watchesBySession(d)), "num_paths": len(watchesByPath(d)),
		"num_total_watches": s.serviceStats().Watches}
}

func (s *Server) adminWatches() map[string]any {
	out := map[string]any{}
	for sid, paths := range watchesBySession(s.details()) {
		out[sessionHex(sid)] = paths
	}
	return map[string]any{"session_id_to_watched_paths": out}
}

func (s *Server) adminWatchesByPath() map[string]any {
	out := map[string]any{}
	for p, sids := range watchesByPath(s.details()) {
		hex := make([]string, len(sids))
		for i, sid := range sids {
			hex[i] = sessionHex(sid)
		}
		out[p] = hex
	}
	return map[string]any{"path_to_session_ids": out}
}

func (s *Server) adminLeader() map[string]any {
	f, ok := zab.PeerFigures(s.ID())
	if !ok || f.Leader == 0 || !s.isServing() {
		return map[string]any{"is_leader": false, "error": "no leader elected"}
	}
	_, addrs := s.peerList()
	ip := hostOf(addrs[int(f.Leader)])
	if len(addrs) == 0 { // a lone peer leads itself and has no Zab address: name where it serves
		ip = s.cfg.ClientPortAddress
		if a, ok := s.Addr().(*net.TCPAddr); ok {
			ip = a.IP.String()
		}
	}
	return map[string]any{"is_leader": f.Leader == s.ID(), "leader_id": f.Leader, "leader_ip": ip}
}

// hostOf is the host of a peer<i> value (host:port[:observer|:participant])
// as ZooKeeper's leader_ip shows it: bare, an IPv6 address without its
// brackets. Cutting at the last colon kept "[::1]" and, with a role
// suffix, the port.
func hostOf(value string) string {
	v := strings.TrimSpace(value)
	for _, role := range []string{":observer", ":participant"} {
		v = strings.TrimSuffix(v, role)
	}
	if host, _, err := net.SplitHostPort(v); err == nil {
		return host
	}
	return v
}

// adminVotingView lists each peer's Zab address as its peer<i> key gives
// it. A peer knows no other peer's client port, so, as ZooKeeper 3.8 with
// a static configuration, no entry names one.
func (s *Server) adminVotingView() map[string]any {
	ids, addrs := s.peerList()
	view := map[string]any{}
	for _, id := range ids {
		view[strconv.Itoa(id)] = addrs[id]
	}
	return map[string]any{"current_config": view}
}

func (s *Server) adminLastSnapshot() map[string]any {
	names, _ := filepath.Glob(filepath.Join(s.snapDir(), "snapshot.*"))
	var best string
	for _, n := range names {
		if base := filepath.Base(n); len(base) == len("snapshot.")+16 && base > filepath.Base(best) {
			best = n
		}
	}
	if best == "" {
		return map[string]any{"zxid": "0x0", "timestamp": 0}
	}
	var ts int64
	if fi, err := os.Stat(best); err == nil {
		ts = fi.ModTime().Unix()
	}
	z, _ := strconv.ParseUint(strings.TrimPrefix(filepath.Base(best), "snapshot."), 16, 64)
	return map[string]any{"zxid": "0x" + strconv.FormatUint(z, 16), "timestamp": ts}
}

func (s *Server) adminInitialConfig() map[string]any {
	ids, addrs := s.peerList()
	var b strings.Builder
	for _, id := range ids {
		b.WriteString("server." + strconv.Itoa(id) + "=" + addrs[id] + "\n")
	}
	return map[string]any{"initial_configuration": b.String()}
}
