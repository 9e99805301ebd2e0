package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"zablab/properties"
)

// The admin HTTP API, as ZooKeeper 3.8's AdminServer: GET /commands lists
// the commands, GET /commands/<name> answers one as JSON with ZooKeeper's
// field names, "command" (the command's primary name) and "error".

// adminCommand is one command: its primary name, its aliases (the
// four-letter word among them), and what it answers.
type adminCommand struct {
	names  []string
	answer func(s *Server) map[string]any
}

// httpSide is one of the server's HTTP listeners (admin API, metrics).
type httpSide struct {
	mu   sync.Mutex
	srvs []*http.Server
	lns  map[string]net.Listener // by the key that turned it on
}

// serve listens on addr for what key turns on and serves h; the error
// names the key, or the first of addrKeys the file sets when the address
// is at fault (see listenKey).
func (s *Server) serve(key, addr string, h http.Handler, addrKeys ...string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return s.props.Errorf(listenKey(s.props, err, key, addrKeys...), ErrListen, "cannot listen on %s: %v", addr, err)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	s.http.mu.Lock()
	s.http.srvs = append(s.http.srvs, hs)
	if s.http.lns == nil {
		s.http.lns = map[string]net.Listener{}
	}
	s.http.lns[key] = ln
	s.http.mu.Unlock()
	s.others.Add(1)
	go func() {
		defer s.others.Done()
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.WithError(err).WithField("key", key).Warn("HTTP listener stopped")
		}
	}()
	return nil
}

// startHTTP starts the admin API and /metrics where the properties turn
// them on. It returns the log lines that say so, for the caller to log
// once the Service started: a peer that fails to start (a bad key, a
// locked data folder) should not have said it listens.
func (s *Server) startHTTP() (announce func(), err error) {
	o := s.cfg.Ops
	var urls [][2]string
	if o.AdminPort > 0 {
		addr := net.JoinHostPort(o.AdminAddress, strconv.Itoa(o.AdminPort))
		if err := s.serve(KeyAdminPort, addr, http.HandlerFunc(s.adminHandler), KeyAdminAddress, KeyClientPortAddress); err != nil {
			return nil, err
		}
		urls = append(urls, [2]string{"admin API listening", "http://" + addr + "/commands"})
	}
	if o.MetricsPort > 0 {
		addr := net.JoinHostPort(o.MetricsAddress, strconv.Itoa(o.MetricsPort))
		if err := s.serve(KeyMetricsPort, addr, s.metricsHandler(), KeyMetricsHost, KeyClientPortAddress); err != nil {
			return nil, err
		}
		urls = append(urls, [2]string{"metrics listening", "http://" + addr + "/metrics"})
	}
	return func() {
		for _, u := range urls {
			s.log.WithField("url", u[1]).Info(u[0])
		}
	}, nil
}

// stopHTTP closes the HTTP listeners and their connections.
func (s *Server) stopHTTP() {
	s.http.mu.Lock()
	defer s.http.mu.Unlock()
	for _, hs := range s.http.srvs {
		hs.Close()
	}
	s.http.srvs = nil
}

// AdminAddr is the admin API's address, nil when it is off.
func (s *Server) AdminAddr() net.Addr { return s.httpAddr(KeyAdminPort) }

// MetricsAddr is /metrics' address, nil when it is off.
func (s *Server) MetricsAddr() net.Addr { return s.httpAddr(KeyMetricsPort) }

func (s *Server) httpAddr(key string) net.Addr {
	s.http.mu.Lock()
	defer s.http.mu.Unlock()
	if ln, ok := s.http.lns[key]; ok {
		return ln.Addr()
	}
	return nil
}

func (s *Server) adminHandler(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case path == "" || path == "/commands":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<h1>MWZooKeeper admin API</h1>\n<ul>\n")
		for _, c := range adminCommands() {
			fmt.Fprintf(w, "<li><a href=\"/commands/%s\">%s</a></li>\n", c.names[0], html.EscapeString(strings.Join(c.names, ", ")))
		}
		fmt.Fprint(w, "</ul>\n")
	case strings.HasPrefix(path, "/commands/"):
		name := strings.TrimPrefix(path, "/commands/")
		c, ok := findCommand(name)
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]any{"command": name,
				"error": "Unknown command: " + name + " (see /commands)"})
			return
		}
		out := c.answer(s)
		out["command"] = c.names[0]
		if _, ok := out["error"]; !ok {
			out["error"] = nil
		}
		writeJSON(w, http.StatusOK, out)
	default:
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func findCommand(name string) (adminCommand, bool) {
	for _, c := range adminCommands() {
		for _, n := range c.names {
			if n == name {
				return c, true
			}
		}
	}
	return adminCommand{}, false
}

// sessionHex is how ZooKeeper's JSON names a session.
func sessionHex(id int64) string { return fmt.Sprintf("0x%x", id) }

// peerList is the peer<i> entries, in id order.
func (s *Server) peerList() (ids []int, addrs map[int]string) {
	addrs, _ = s.props.Indexed("peer")
	for i := range addrs {
		ids = append(ids, i)
	}
	sort.Ints(ids)
	return ids, addrs
}

// listenKey is the key a failed listen is about: an address the machine
// does not have or a host name that does not resolve is the fault of the
// first of addrKeys the file sets (the operator must look at that line,
// not the port's); anything else (a port in use, a port that needs
// privileges) is portKey's.
func listenKey(p *properties.Properties, err error, portKey string, addrKeys ...string) string {
	var dns *net.DNSError
	if !errors.Is(err, syscall.EADDRNOTAVAIL) && !errors.As(err, &dns) {
		return portKey
	}
	for _, k := range addrKeys {
		if v, ok := p.Get(k); ok && strings.TrimSpace(v) != "" {
			return k
		}
	}
	return portKey
}
