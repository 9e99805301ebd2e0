package aufgabe5

import "zablab/mwzookeeper"

var _ mwzookeeper.ReadOnly = (*Service)(nil)

// ReadStale answers a read from the applied state while the replica has
// no quorum (mwzookeeper.ReadOnly; ZooKeeper's read-only mode, beyond the
// sheet). As session 0 the read checks no session and leaves no watch:
// the session is the server's own, and no write would fire a watch.
func (s *Service) ReadStale(req *mwzookeeper.Request) *mwzookeeper.Response {
	r := *req
	r.Session, r.Watch = 0, false
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.read(&r)
}
