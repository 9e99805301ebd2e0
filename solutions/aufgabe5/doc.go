// Package aufgabe5 is the reference solution of Aufgabe 5: MWZooKeeper, a
// ZooKeeper-like znode service replicated with the course's Zab library.
//
// New makes a mwzookeeper.Service. The replica that receives a write
// proposes the request itself (session, op, arguments) through Zab; every
// replica applies each delivered request deterministically, so outcomes
// (NodeExists, BadVersion, the sequential name, the new stat) agree
// everywhere, and only the proposing replica answers its client. Reads are
// answered locally from the applied state, after the session's earlier
// writes (read your writes).
//
// The files follow the parts of the assignment; each function names its
// part in a tag:
//
//	A5.1  service.go, tree.go, apply.go, reads.go: the tree, versions and
//	      stats, writes answered at delivery, local reads
//	A5.2  callback.go, txn.go, order.go, state.go, zabpeer.go: replication,
//	      per-session order, snapshots, requests failed on LOOKING
//	A5.3  sessions.go: sessions, ephemerals, liveness and expiry
//	A5.4  apply.go: timestamps from the cookie's leader timestamp
//	optional: sequential nodes (apply.go), watches (apply.go, reads.go),
//	      multi (multi.go)
//
// Nothing replicated depends on a local clock, on map order or on
// goroutines: times come from the cookie, children and ephemerals are
// sorted, session ids are the zxid of their creation. The one local clock
// is the monotonic one on which the leader decides when a session expired
// (sessions.go); the expiry itself is proposed and applied in the order.
package aufgabe5
