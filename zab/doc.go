// Package zab is the atomic broadcast library of the course's Aufgabe 5:
// every message proposed by any peer is delivered on every peer, in one
// total order, exactly once, and survives crashes of a minority (or of
// everyone, since nothing is delivered before a quorum has it on disk).
//
// # Using it
//
// An application implements Callback and hands it to NewSingleZab (one
// peer alone) or NewMultiZab (one peer of an ensemble), together with the
// peer's properties file:
//
//	myid=1
//	peer1=127.0.0.1:13100
//	peer2=127.0.0.1:13200
//	peer3=127.0.0.1:13300
//	dataLogDir=../data/peer1/log
//	tickTime=100
//
// Startup restores the application (SetState with the newest snapshot)
// and joins the ensemble. Propose returns at once with a cookie; the
// message arrives later through Deliver on every peer, with its zxid and the
// leader's timestamp filled in. Sync asks for DeliverSync on this peer after
// everything committed anywhere before the call has been delivered here:
// "Sync, then read" never reads stale data. Status reports LOOKING,
// FOLLOWING or LEADING; LOOKING means messages in flight may be lost, and
// Propose fails at once with ErrNoLeader until a leader is established.
//
// # Guarantees
//
//   - Total order and agreement: every peer delivers the same sequence.
//   - Per-proposer order: one peer's messages are delivered in the order it
//     proposed them.
//   - Durability: a message is delivered only after a quorum has logged it
//     with fsync; nothing delivered is lost when a minority crashes or when
//     the whole ensemble is killed and restarted.
//   - Exactly once: after a restart the application gets SetState with the
//     newest snapshot, then the log suffix: it never sees a message twice
//     and never misses one.
//   - Timestamps strictly increase along the order, also across leader
//     changes and whatever the peers' clocks say.
//
// Callbacks come from one goroutine, never concurrently, in order.
//
// # Configuration keys
//
// myid, peer<i>=host:port[:observer], dataLogDir (required), dataSnapDir
// (default: dataLogDir), tickTime (ms, default 2000), initLimit (ticks,
// default 10), syncLimit (ticks, default 5), snapCount (deliveries between
// snapshots, default 100000), and the logging keys log.level, log.file,
// log.format (package logging). Every bad key or value is an error naming
// the key, the file and the line. A relative path is relative to the
// properties file's folder.
//
// # Inside
//
// The protocol is package zab/core, a deterministic state machine proven
// by the simulator in zab/sim; this package drives it with a clock, the
// file storage of zab/storage and the TCP transport of zab/transport. One
// goroutine drives the core and calls the application; Propose and Sync
// step the core under a mutex, so they may be called from callbacks.
// docs/threads.md lists every goroutine.
package zab
