package server

import (
	"io/fs"
	"path/filepath"
	"slices"
	"sort"

	"zablab/mwzookeeper"
)

// details asks the Service for its sessions, ephemerals and watches, if
// it can list them (mwzookeeper.Detailer).
func (s *Server) details() mwzookeeper.Details {
	if d, ok := s.svc.(mwzookeeper.Detailer); ok {
		return d.Details()
	}
	return mwzookeeper.Details{}
}

// watchesBySession lists, per session, the paths it watches (data and
// child watches together), sorted (wchc).
func watchesBySession(d mwzookeeper.Details) map[int64][]string {
	out := map[int64][]string{}
	if d.Watches == nil {
		return out
	}
	for sid, paths := range d.Watches.BySession() {
		out[sid] = paths
	}
	return out
}

// watchesByPath lists, per path, the sessions watching it (wchp).
func watchesByPath(d mwzookeeper.Details) map[string][]int64 {
	out := map[string][]int64{}
	for sid, paths := range watchesBySession(d) {
		for _, p := range paths {
			out[p] = append(out[p], sid)
		}
	}
	for p := range out {
		slices.Sort(out[p])
	}
	return out
}

// sortedSessions returns the keys of m, ascending.
func sortedSessions[V any](m map[int64]V) []int64 {
	ids := make([]int64, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func sortedPaths[V any](m map[string]V) []string {
	ps := make([]string, 0, len(m))
	for p := range m {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

// dirSizes are the bytes under the snapshot and log folders (dirs).
func (s *Server) dirSizes() (data, log int64) {
	return dirSize(s.snapDir()), dirSize(s.logDir())
}

// logDir is the peer's log folder, absolute: conf and the admin API are
// read from elsewhere than the folder the server was started in.
func (s *Server) logDir() string {
	return absolute(s.props.Path("dataLogDir", ""))
}

// snapDir is the peer's snapshot folder (its log folder unless
// dataSnapDir says otherwise), absolute.
func (s *Server) snapDir() string {
	if dir := s.props.Path("dataSnapDir", ""); dir != "" {
		return absolute(dir)
	}
	return s.logDir()
}

func absolute(dir string) string {
	if dir == "" {
		return ""
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

func dirSize(dir string) int64 {
	if dir == "" {
		return 0
	}
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			if fi, err := e.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// connectedSessions are the sessions with a connection to this server.
func (s *Server) connectedSessions() []int64 {
	var ids []int64
	for _, c := range s.connList() {
		if id := c.session.Load(); id != 0 {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}
