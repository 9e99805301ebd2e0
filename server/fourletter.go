package server

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"zablab/mwzookeeper"
)

// Version is what the four-letter words report as the server's version: the
// ZooKeeper release whose client protocol it speaks.
const Version = "3.8.0-zablab"

const notServing = "This ZooKeeper instance is not currently serving requests\n"

// fourLetterWord answers a four-letter word and closes the connection, as
// ZooKeeper does; a known word the whitelist (4lw.commands.whitelist) leaves
// out gets ZooKeeper's refusal, an unknown one a closed connection.
func (c *conn) fourLetterWord(word string) {
	c.br.Discard(4)
	c.isWord.Store(true) // not a client: left out of the counts
	s := c.srv
	var b strings.Builder
	switch {
	case !slices.Contains(fourLetterWords, word):
		c.closeQuiet("unknown four-letter word " + word)
		return
	case !s.cfg.Ops.allowed(word):
		fmt.Fprintf(&b, "%s is not executed because it is not in the whitelist.\n", word)
	default:
		s.answerWord(&b, word, c)
	}
	c.nc.SetWriteDeadline(time.Now().Add(5 * time.Second))
	c.nc.Write([]byte(b.String()))
	c.closeQuiet("answered " + word)
}

// answerWord writes the answer to word, one of fourLetterWords, asked on
// the connection asker.
func (s *Server) answerWord(b *strings.Builder, word string, asker *conn) {
	switch word {
	case "ruok":
		b.WriteString("imok")
	case "isro":
		// ZooKeeper's IsroCommand: null while no server runs (LOOKING).
		switch {
		case s.isReadOnly():
			b.WriteString("ro")
		case s.isServing():
			b.WriteString("rw")
		default:
			b.WriteString("null")
		}
	case "conf":
		s.writeConf(b)
	case "envi":
		writeEnvi(b)
	case "srst":
		s.stats.reset()
		b.WriteString("Server stats reset.\n")
	case "crst":
		s.resetConnStats()
		b.WriteString("Connection stats reset.\n")
	case "gtmk", "stmk":
		b.WriteString("0\n") // no trace mask: ZooKeeper's request tracing has no counterpart here
	case "srvr", "stat", "mntr", "cons", "wchs", "wchc", "wchp", "dump", "dirs":
		if !s.answering() {
			b.WriteString(notServing)
			break
		}
		s.writeStatus(b, word, asker)
	}
}

func (s *Server) writeStatus(b *strings.Builder, word string, asker *conn) {
	st := s.serviceStats()
	switch word {
	case "srvr":
		s.writeSrvr(b, st, nil)
	case "stat":
		s.writeSrvr(b, st, asker)
	case "mntr":
		for _, f := range s.monitor() {
			fmt.Fprintf(b, "zk_%s\t%s\n", f.Key, formatFigure(f.Val))
		}
	case "cons":
		s.writeCons(b, asker)
		b.WriteString("\n")
	case "wchs":
		d := s.details()
		fmt.Fprintf(b, "%d connections watching %d paths\nTotal watches:%d\n",
			len(watchesBySession(d)), len(watchesByPath(d)), st.Watches)
	case "wchc", "wchp", "dump":
		s.writeDetails(b, word)
	case "dirs":
		data, log := s.dirSizes()
		fmt.Fprintf(b, "datadir_size: %d\nlogdir_size: %d\n", data, log)
	}
}

func formatFigure(v any) string {
	if f, ok := v.(float64); ok {
		return fmt.Sprintf("%.4f", f)
	}
	return fmt.Sprint(v)
}

// writeDetails answers wchc (paths per session), wchp (sessions per path)
// and dump (sessions, ephemerals, connections), in ZooKeeper's layout.
func (s *Server) writeDetails(b *strings.Builder, word string) {
	d := s.details()
	switch word {
	case "wchc":
		bySession := watchesBySession(d)
		for _, sid := range sortedSessions(bySession) {
			fmt.Fprintf(b, "0x%x\n", sid)
			for _, p := range bySession[sid] {
				fmt.Fprintf(b, "\t%s\n", p)
			}
		}
	case "wchp":
		byPath := watchesByPath(d)
		for _, p := range sortedPaths(byPath) {
			fmt.Fprintf(b, "%s\n", p)
			for _, sid := range byPath[p] {
				fmt.Fprintf(b, "\t0x%x\n", sid)
			}
		}
	case "dump":
		fmt.Fprintf(b, "SessionTracker dump:\nGlobal Sessions(%d):\n", len(d.Sessions))
		for _, sid := range sortedSessions(d.Sessions) {
			fmt.Fprintf(b, "0x%x\t%dms\n", sid, d.Sessions[sid].Milliseconds())
		}
		fmt.Fprintf(b, "ephemeral nodes dump:\nSessions with Ephemerals (%d):\n", len(d.Ephemerals))
		for _, sid := range sortedSessions(d.Ephemerals) {
			fmt.Fprintf(b, "0x%x:\n", sid)
			for _, p := range d.Ephemerals[sid] {
				fmt.Fprintf(b, "\t%s\n", p)
			}
		}
		here := s.connectedSessions()
		fmt.Fprintf(b, "Connections dump:\nConnections Sets (%d):\n", len(here))
		for _, sid := range here {
			fmt.Fprintf(b, "0x%x\n", sid)
		}
	}
}

// resetConnStats zeroes every connection's counters (crst).
func (s *Server) resetConnStats() {
	for _, c := range s.connList() {
		c.recv.Store(0)
		c.sent.Store(0)
	}
}

// serviceStats asks the Service to describe itself, if it can.
func (s *Server) serviceStats() mwzookeeper.Stats {
	var st mwzookeeper.Stats
	if r, ok := s.svc.(mwzookeeper.Reporter); ok {
		st = r.Stats()
	}
	if st.Role == "" {
		st.Role = "standalone"
	}
	if s.isReadOnly() {
		st.Role = "read-only" // ZooKeeper's ReadOnlyZooKeeperServer.getState
	}
	return st
}

// writeSrvr answers srvr, and stat when asker (stat's connection) is set:
// stat lists the clients.
func (s *Server) writeSrvr(b *strings.Builder, st mwzookeeper.Stats, asker *conn) {
	fmt.Fprintf(b, "Zookeeper version: %s, built for MWZooKeeper\n", Version)
	if asker != nil {
		b.WriteString("Clients:\n")
		s.writeCons(b, asker)
		b.WriteString("\n")
	}
	lo, avg, hi := s.stats.latencyMs()
	fmt.Fprintf(b, "Latency min/avg/max: %d/%.4f/%d\n", lo, avg, hi)
	fmt.Fprintf(b, "Received: %d\nSent: %d\nConnections: %d\nOutstanding: %d\n",
		s.stats.received.Load(), s.stats.sent.Load(), len(s.connList()), s.outstanding())
	fmt.Fprintf(b, "Zxid: 0x%x\nMode: %s\nNode count: %d\n", st.Zxid, st.Role, st.Nodes)
}

// writeCons lists the client connections and, as ZooKeeper 3.8 does, the
// connection asker that asks, so that the list is never empty. The asker
// is listed as ZooKeeper lists it: no session, its word received, nothing
// sent yet. It stays out of the counts (srvr's Connections, mntr's
// num_alive_connections), which /metrics shares with mntr.
func (s *Server) writeCons(b *strings.Builder, asker *conn) {
	cs := s.connList()
	if asker != nil {
		cs = append(cs, asker)
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].remote < cs[j].remote })
	for _, c := range cs {
		if c == asker {
			fmt.Fprintf(b, " /%s[0](queued=0,recved=1,sent=0)\n", c.remote)
			continue
		}
		c.mu.Lock()
		queued := len(c.pending) - c.head
		c.mu.Unlock()
		fmt.Fprintf(b, " /%s[1](queued=%d,recved=%d,sent=%d,sid=0x%x,to=%d)\n",
			c.remote, queued, c.recv.Load(), c.sent.Load(), c.session.Load(), c.timeout.Load())
	}
}

func (s *Server) writeConf(b *strings.Builder) {
	fmt.Fprintf(b, "clientPort=%d\nclientPortAddress=%s\n", s.cfg.ClientPort, s.cfg.ClientPortAddress)
	if a := s.Addr(); a != nil {
		fmt.Fprintf(b, "clientAddress=%s\n", a)
	}
	fmt.Fprintf(b, "dataDir=%s\n", s.snapDir()) // as the admin API's data_dir
	fmt.Fprintf(b, "dataLogDir=%s\ntickTime=%d\nmaxClientCnxns=%d\nminSessionTimeout=%d\nmaxSessionTimeout=%d\nserverId=%d\n",
		s.logDir(), s.cfg.TickTime.Milliseconds(), s.cfg.MaxClientCnxns,
		s.cfg.MinSessionTimeout.Milliseconds(), s.cfg.MaxSessionTimeout.Milliseconds(), s.ID())
	fmt.Fprintf(b, "forceSync=%s\n", s.forceSync()) // beyond ZooKeeper's conf: the operator sees an unsafe no
	peers, _ := s.props.Indexed("peer")
	ids := make([]int, 0, len(peers))
	for i := range peers {
		ids = append(ids, i)
	}
	sort.Ints(ids)
	for _, i := range ids {
		fmt.Fprintf(b, "server.%d=%s\n", i, peers[i])
	}
}

func writeEnvi(b *strings.Builder) {
	host, _ := os.Hostname()
	wd, _ := os.Getwd()
	fmt.Fprintf(b, "Environment:\nzookeeper.version=%s\nhost.name=%s\ngo.version=%s\nos.name=%s\nos.arch=%s\nuser.dir=%s\n",
		Version, host, runtime.Version(), runtime.GOOS, runtime.GOARCH, wd)
}

// connList is a snapshot of the client connections (four-letter words
// left out).
func (s *Server) connList() []*conn {
	s.mu.RLock()
	defer s.mu.RUnlock()
	cs := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		if !c.isWord.Load() {
			cs = append(cs, c)
		}
	}
	return cs
}

// outstanding counts requests waiting for their replies.
func (s *Server) outstanding() int {
	n := 0
	for _, c := range s.connList() {
		c.mu.Lock()
		n += len(c.pending) - c.head
		c.mu.Unlock()
	}
	return n
}
