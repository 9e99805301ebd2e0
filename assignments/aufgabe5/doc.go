// Package aufgabe5 is your MWZooKeeper: a ZooKeeper-like znode service,
// replicated with the course's Zab library (Aufgabe 5; the assignment sheet
// is README.de.md at the top of the repository).
//
// New makes a mwzookeeper.Service; the server (cmd/mwzk-server --impl
// assignment) and the tests (make grade) run it. What is here already is
// provided: the Service's fields, Start and Stop, the tree as a data
// structure (tree.go), the replicated message's codec (txn.go) and the
// ticker that drives liveness. What you write is marked TODO(A5.x), x the
// part of the assignment it belongs to; until you do, the service answers
// mwzookeeper.ErrUnimplemented.
//
//	A5.1  zabpeer.go, service.go, callback.go, apply.go, reads.go,
//	      sessions.go, order.go: a lone replica (SingleZab); writes
//	      proposed through Zab and answered when delivered, reads local
//	A5.2  the same files plus state.go: three replicas (MultiZab), sync,
//	      per-session order, snapshots, requests failed on LOOKING,
//	      reconnects
//	A5.3  sessions.go, callback.go, service.go, apply.go: ephemeral nodes
//	      gone with their session; liveness and expiry
//	A5.4  zabpeer.go, apply.go: times from the leader's timestamp
//	A5.5  apply.go: sequential nodes (optional)
//	A5.6  apply.go, reads.go, sessions.go: watches (optional)
//	A5.7  multi.go, apply.go: multi (optional)
//
// The rule that holds it together: propose the request, decide at apply.
// Everything applied must depend only on the delivered message, the
// state and the cookie, never on a local clock, on map order or on
// goroutines, so that every replica ends in the same state.
package aufgabe5
