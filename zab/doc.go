// Package zab is the atomic broadcast library of the course's Aufgabe 5:
// every message proposed by any peer is delivered on every peer, in one
// total order, exactly once, and survives crashes of a minority (or of
// everyone, since nothing is delivered before a quorum has it on disk).
//
// # Using it
//
// An application implements Callback and hands it to NewSingleZab (one
// peer alone) or NewMultiZab (one peer of an ensemble), together with the
// peer's properties, which properties.LoadFile("peer1.properties") reads
// (package zablab/properties):
//
//	myid=1
//	peer1=127.0.0.1:13100
//	peer2=127.0.0.1:13200
//	peer3=127.0.0.1:13300
//	dataLogDir=../data/peer1/log
//	tickTime=100
//
// A program that builds the Config itself (tests, a service with its own
// keys) uses NewSingleZabFromConfig or NewMultiZabFromConfig, which open
// no file; ConfigFromProperties reads a Config, and a Config it returns
// that is never used should be closed (Config.Close: it may hold the log
// file). The package example (Example) shows the whole cycle, and
// cmd/zab-demo is a complete application (make peer ID=1).
//
// Startup restores the application (SetState with the newest snapshot)
// and joins the ensemble. Propose returns at once with a cookie; the
// message arrives later through Deliver on every peer, with its zxid and the
// leader's timestamp filled in, and the same (Proposer, Incarnation, Seq):
// every Startup draws a new random incarnation, so that triple names one
// request for ever. Sync asks for DeliverSync on this peer once everything
// this peer proposed before the call and everything committed anywhere
// before it has been delivered here: "Sync, then read" never reads stale
// data, not even missing the reader's own writes. Status reports LOOKING,
// FOLLOWING or LEADING. LOOKING means: a proposal still in flight may be
// delivered later, under the next leader, or never; pending syncs are
// dropped (their DeliverSync never comes); and Propose fails at once with
// ErrNoLeader until a leader is established. A follower reports LOOKING at
// once when its connection to the leader fails (a crashed leader's process
// closes its sockets), and otherwise after syncLimit ticks of silence: a
// leader that is only busy (a slow callback or fsync) keeps its followers.
// After the peer stops by itself (a storage or SetState failure), Propose
// and Sync answer ErrClosed, already in the final Status(LOOKING).
//
// # Guarantees
//
//   - Total order and agreement: every peer delivers the same sequence.
//   - Per-proposer order: one peer's messages are delivered in the order it
//     proposed them.
//   - Durability: a message is delivered only after a quorum has logged it
//     with fsync; nothing delivered is lost when a minority crashes or when
//     the whole ensemble is killed and restarted.
//   - Exactly once: every committed message is delivered once on every
//     peer, in order; after a restart the application gets SetState with
//     the newest snapshot, then the log suffix, so it never sees a message
//     twice nor skips one. (A proposal that is never committed is never
//     delivered: see LOOKING above.)
//   - Timestamps strictly increase along the order, also across leader
//     changes and whatever the peers' clocks say.
//
// Callbacks never run concurrently and come in order. Deliver, DeliverSync,
// Status and SetState run on the peer's protocol goroutine and block it:
// while one runs the peer answers nobody, so one that takes longer than
// syncLimit ticks costs the peer its place in the ensemble. GetState runs
// on a goroutine of its own, streaming to the snapshot file, while the
// protocol goes on; the other callbacks are held back meanwhile and then
// run in order, so a large state delays deliveries but does not cost the
// ensemble its leader (docs/zab.md has the measurement). Callbacks may
// call Propose and Sync; Shutdown may be called from any other goroutine
// at any time.
//
// # Configuration keys
//
// myid, peer<i>=host:port[:observer], dataLogDir (required), dataSnapDir
// (default: dataLogDir), tickTime (ms, default 2000), initLimit (ticks,
// default 10), syncLimit (ticks, default 5), snapCount (deliveries between
// snapshots, default 100000), snapSizeLimitInKb (the data delivered between
// snapshots, at most; default 65536, 0 for no limit: what a restart holds
// in memory until it has delivered the log again), forceSync (yes, the default, or no: the log
// is written but never fsynced, as ZooKeeper's forceSync=no; for
// measuring only), and the logging keys log.level, log.file,
// log.format (package logging). Every bad key or value is an error naming
// the key, the file and the line, peer addresses must be host:port with a
// numeric port, and a key that differs from a known one only in case
// ("ticktime") is an error, and so are zoo.cfg's server.<i> and dataDir,
// naming peer<i> and dataSnapDir. Any other unknown key ("log.levle", and
// "peerType" for a single peer; an ensemble refuses it) is logged as a
// warning with file and line; KnownKeys lists the keys taken as known (the
// service's clientPort, maxClientCnxns, minSessionTimeout and
// maxSessionTimeout included), and CheckKeys and UnknownKeys take more. A
// relative path is relative to the properties file's folder.
//
// # Inside
//
// The protocol is package zab/core, a deterministic state machine proven
// by the simulator in zab/sim; this package drives it with a clock, the
// file storage of zab/storage and the TCP transport of zab/transport. One
// goroutine owns the core and carries out what it asks (disk, network,
// callbacks), handing the fsync of broadcast batches to a disk goroutine so
// that it goes on meanwhile; Propose and Sync only number a request and queue it for that
// goroutine, never waiting for it, so they work alike from any goroutine
// and from callbacks. docs/threads.md lists every goroutine.
package zab
