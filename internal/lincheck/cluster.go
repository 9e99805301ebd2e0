package lincheck

import (
	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// EnsembleCluster is an svctest ensemble as the clients see it, each
// request handed to the Service directly.
type EnsembleCluster struct{ *svctest.Ensemble }

// Serves is ReplicaServes.
func (c EnsembleCluster) Serves(i int) bool { return ReplicaServes(c.Ensemble, i) }

// ReplicaServes says whether replica i of e takes requests. It asks the
// Service too, where it reports its role: the reference answers
// ConnectionLoss as soon as it stops serving, a moment before it tells its
// Host, and a client that trusted the Host alone would spin through that
// moment with requests that all fail.
func ReplicaServes(e *svctest.Ensemble, i int) bool {
	svc := e.Service(i)
	if svc == nil || !e.Host(i).IsServing() {
		return false
	}
	r, ok := svc.(mwzookeeper.Reporter)
	return !ok || r.Stats().Role != "looking"
}
