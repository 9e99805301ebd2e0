// Package lincheck tests an MWZooKeeper ensemble for linearizability.
// Sessions on every replica issue a random mix of create, delete, setData
// and sync+getData on a few keys while a fault happens (the leader's
// replica stopped and restarted, a network cut); every call is recorded
// with the times it was made and answered, and porcupine then searches
// for an order of the calls that a single znode per key could have
// produced, each call taking effect at one instant between its call and
// its answer. If there is none, the history is drawn as a page
// (package internal/histview) with the faults beside it.
//
// The reference's own tests and the grading suite's A5.2/Linearizable
// (mwzookeeper/conformance) use it alike:
//
//	h := lincheck.NewHistory()
//	out := lincheck.UnderFailover(t, lincheck.Failover{Ensemble: e, Cluster: cl, History: h, Seed: seed, ...})
//	if err := lincheck.Verify(t, out.Ops, out.Faults, lincheck.Page{Title: ..., Replay: ...}); err != nil {
//		t.Fatalf("seed %d: %v", seed, err)
//	}
//
// The model (Model) treats a call whose answer was lost (ConnectionLoss)
// as one that may have taken effect at any time after its call, or never.
package lincheck
