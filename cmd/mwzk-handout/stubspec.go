package main

// The stub spec: which functions of solutions/aufgabe5 the course
// provides as they are, and which the student writes, with the TODO body
// that replaces the reference's. Every function of the reference must be
// named here, once; genStubs fails on anything else, so a change in the
// reference cannot slip into the handout unseen (docs/decisions.md,
// "handout", says why the line falls where it does).

// provided are kept as the reference has them: plumbing that is not the
// exercise (construction, Start/Stop, the liveness ticker, the tree as a
// data structure, the message codec, four-letter-word stats).
var provided = []string{
	// service.go
	"New", "Service.Start", "Service.init", "newIncarnation", "Service.Stop",
	"connLoss", "tooLarge", "Service.Stats", "Service.Details",
	// callback.go: Zab's snapshot calls delegate to state.go
	"callback.GetState", "callback.SetState",
	// apply.go
	"applyCtx.event",
	// order.go
	"flush",
	// reads.go: ZooKeeper 3.8's reads beyond the sheet (getEphemerals, getAllChildrenNumber,
	// multiRead; addWatch, removeWatches and checkWatches)
	"Service.readBeyond", "Service.multiRead", "Service.ephemeralsUnder", "Service.countBelow",
	"Service.watchOp", // beyond the sheet
	// sessions.go
	"newPassword", "createdAhead", "Service.livenessLoop",
	// tree.go
	"newTree", "tree.get", "tree.lookup", "znode.sortedChildren", "tree.link", "tree.unlink",
	"tree.setData", "tree.ephemeralsOf", "tree.countEphemerals",
	// txn.go
	"appendHeader", "appendBytes", "appendString", "appendOp", "appendRequest", "appendLiveness",
	"decoder.fail", "decoder.byte", "decoder.uvarint", "decoder.varint", "decoder.int32",
	"decoder.uint64", "decoder.bytes", "decoder.op", "decodeTxn", "decodeRequest",
	// ZooKeeper 3.8 beyond the sheet: ACLs, containers, TTL nodes (extended.go and the codecs)
	"appendACL", "appendIDs", "decoder.acl", "decoder.ids", "emptyTree", "readAllowed", "aclAsSeen",
	"readExtension", "Service.refuseTTL", "ttlOff", "resultOp", "checkCreateMode", "nodeACL", "extendedOwner", "Service.permitted",
	"Service.setACL", "Service.deleteContainer", "expired", "Service.sweepCandidates",
	// readonly.go: ZooKeeper's read-only mode answers reads through the student's read
	"Service.ReadStale", // beyond the sheet
	// paths.go: which paths a delivered write may have, by its txn format
	"validPath", "validWritePath", "systemNode",
}

// stubRewrites are literal replacements in a file's provided text.
var stubRewrites = map[string][][2]string{
	"service.go": {{"Service is the reference MWZooKeeper replica", "Service is an MWZooKeeper replica"}},
}

// stubFiles replace a reference file whole.
var stubFiles = map[string]string{
	"doc.go": `// Package aufgabe5 is your MWZooKeeper: a ZooKeeper-like znode service,
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
`,
}

// stubBodies are the student's functions: name -> the body of the stub.
var stubBodies = map[string]string{
	// extended.go: the reference says true; a student's Service need not
	// do ZooKeeper's calls beyond the sheet, and the server then answers
	// them Unimplemented.
	"Service.BeyondTheSheet": `
	return false
`,
	// zabpeer.go
	"newZab": `
	// TODO(A5.1): build this replica's Zab peer from its properties. Check
	// the keys first (zab.CheckKeys, allowing the service's own keys
	// mwzookeeper.KeyClientPort, KeyMaxClientCnxns, KeyMinSessionTimeout
	// and KeyMaxSessionTimeout), read the configuration
	// (zab.ConfigFromProperties) and make a SingleZab for a lone peer
	// (zab.NewSingleZabFromConfig).
	// TODO(A5.2): make a MultiZab (zab.NewMultiZabFromConfig) when p names
	// peers (mwzookeeper.Ensemble).
	// TODO(A5.4): the leader stamps every message with its clock; make
	// that clock the host's (cfg.Now = now): the tests skew it.
	return nil, fmt.Errorf("%w: newZab for %s (TODO A5.1)", mwzookeeper.ErrUnimplemented, p.File())`,

	// service.go
	"Service.Submit": `
	// TODO(A5.1): route the request. Writes (req.Op.IsWrite(), the session
	// requests among them) go through Zab: submitWrite. Reads are answered
	// here, at once, from the applied state: submitLocal with s.read.
	// OpReconnect, though IsWrite, never goes through Zab (see A5.2).
	// TODO(A5.2): OpSync goes through Zab too (submitSync); OpReconnect, a
	// client coming back with its session, is answered locally
	// (submitLocal with s.reconnect).
	reply(&mwzookeeper.Response{Err: fmt.Errorf("%w: %s (TODO A5.1)", mwzookeeper.ErrUnimplemented, req.Op)})`,
	"Service.submitLocal": `
	// TODO(A5.1): answer from this replica's applied state, at once:
	// exec(req) under s.mu, and give the reply before unlocking, so that no
	// delivered write fires the read's watches (A5.6) ahead of its reply.
	// A replica that is not serving answers connLoss.
	// TODO(A5.2): a read must see its session's earlier writes: while the
	// session has writes or syncs in flight here (s.queues), queue the read
	// behind them (enqueue); answer runs it when its turn comes.
	// TODO(A5.3): a read is activity of its session (touch).
	reply(&mwzookeeper.Response{Err: fmt.Errorf("%w: %s (TODO A5.1)", mwzookeeper.ErrUnimplemented, req.Op)})`,
	"Service.submitWrite": `
	// TODO(A5.1): propose the request itself through Zab, not its outcome:
	// every replica decides the outcome when the request is delivered
	// (applyRequest), so all decide alike. Refuse what tooLarge refuses and
	// answer connLoss while not serving. Number the request (s.nextReq) and
	// keep its reply under that number (s.pending) before proposing, so that
	// its delivery always finds it; encode it (appendRequest with the
	// header {s.myid, s.inc, reqno}) and s.zab.Propose it. A proposal that
	// fails is answered at once (failOne). A createSession's password is
	// drawn here (newPassword) and travels with the request; a timeout of 0
	// means defaultTimeoutTicks ticks (s.tick).
	// TODO(A5.2): the write takes its place in its session's queue
	// (enqueue), so the session's later reads wait for it. Behind a sync of
	// its session still in flight (behindSync) it is held, encoded, in
	// r.held and proposed once the sync is answered (release). A write
	// refused at once while its session has requests waiting is answered
	// in its turn too (queued with its reply in r.resp, r.stamp).
	reply(&mwzookeeper.Response{Err: fmt.Errorf("%w: %s (TODO A5.1)", mwzookeeper.ErrUnimplemented, req.Op)})`,
	"Service.failOne": `
	// TODO(A5.1): answer the write numbered reqno with connLoss (with
	// ErrBadArguments when Zab says zab.ErrTooLarge), unless something else
	// answered it already (it is no longer s.pending[reqno]).
	// TODO(A5.2): its reply goes out in its session's turn (r.stamp: with
	// the zxid applied by then); give the replies before unlocking, as
	// submitLocal does for reads drained here.`,
	"Service.submitSync": `
	// TODO(A5.2): ask Zab for a sync point (s.zab.Sync) and answer the
	// request when DeliverSync brings that cookie's Seq (s.syncs): by then
	// everything committed before the sync is applied here, so the
	// session's next read is not stale. The sync takes its place in the
	// session's queue like a write; its reply carries its path (r.path).
	reply(&mwzookeeper.Response{Err: fmt.Errorf("%w: sync (TODO A5.2)", mwzookeeper.ErrUnimplemented)})`,

	// callback.go
	"callback.Deliver": `
	// TODO(A5.1): apply one delivered message on this replica. Decode it
	// (decodeTxn into s.tx): a message that does not decode is logged and
	// skipped, alike on every replica, the state unchanged, and if this
	// replica proposed it, its request is answered with ErrBadArguments
	// and the reason. Otherwise note its zxid (s.lastZxid) and apply it
	// under s.mu: a request with applyRequest. If this run of this
	// replica proposed it (the decoded header's proposer == s.myid and
	// incarnation == s.inc; not the cookie's Incarnation, which is the Zab
	// library's own run number, never s.inc) and it still waits in
	// s.pending, answer it with the outcome. Give the
	// replies, and the host's SessionClosed calls collected in s.closedOut,
	// only after unlocking.
	// TODO(A5.2): an owner message (kindOwner) makes its proposer the
	// owner of the session it names (a reconnect moved it there).
	// TODO(A5.3): a liveness message refreshes its sessions
	// (applyLiveness).`,
	"callback.DeliverSync": `
	// TODO(A5.2): answer the sync with this cookie's Seq (s.syncs), if it
	// still waits, with the zxid applied so far and the sync's path (as
	// ZooKeeper echoes it); then propose the writes of its session held
	// behind it (release).`,
	"callback.Status": `
	// TODO(A5.1): follow the local Zab's role (s.role, s.leader). FOLLOWING
	// and LEADING: serve (s.serving, unless stopped) and tell the host
	// (s.host.Serving) after unlocking.
	// TODO(A5.2): LOOKING: stop serving and answer every request waiting
	// here with ConnectionLoss (failAll): the leader is gone, and what was
	// in flight may be delivered later or never.
	// TODO(A5.3): a replica that becomes leader grants every session a
	// fresh timeout (seen = now on its own clock) and forgets the expiries
	// it proposed (s.expiring).`,

	// apply.go
	"applyCtx.reset": `
	// TODO(A5.1): start the context of a new delivery: its zxid
	// (cookie.Zxid), its session, no undo records, no events, and its time
	// c.ts in ms, which create and setData give to ctime and mtime.
	// (applyRequest sets c.auth and c.format from the delivered txn: the
	// provided ACL and path checks read them.)
	// TODO(A5.4): that time is the leader's timestamp of the cookie
	// (cookie.Timestamp, ns), never the local clock: the replicas' clocks
	// differ, the cookie is the same everywhere.`,
	"Service.applyRequest": `
	// TODO(A5.1): apply one delivered write request, on every replica, and
	// return its outcome (only the proposing replica sends it). Start the
	// context (s.ctx.reset), refuse a request of a session (not 0) that
	// does not exist (ErrSessionExpired); a request without a session (0)
	// goes on, and create answers its ephemeral ErrBadArguments. Then by
	// t.op: a tree operation with applyOp(t.rec), a session with
	// applyCreateSession or applyCloseSession. The Response carries the
	// zxid. Decide from the request, the tree and the cookie only. Set
	// c.auth = t.auth and c.format = t.version after the reset: nodeACL,
	// permitted and the path checks of paths.go judge by them.
	// TODO(A5.2): a session moved to another replica by a reconnect
	// (sess.owner, set and not t.proposer) fails the writes still sent
	// through its old replica with ErrSessionMoved; the leader's expiry
	// (t.expired) comes from anywhere.
	// TODO(A5.3): a write is activity of its session: note when it was
	// seen here (sess.seen = time.Since(s.start), this replica's monotonic
	// clock; only the leader's decision to expire depends on it, and that
	// decision is proposed through Zab).
	// TODO(A5.6): after a successful write, fire its watch events (fire).
	// TODO(A5.7): OpMulti with applyMulti(t.ops).
	return mwzookeeper.Response{Zxid: int64(cookie.Zxid), Err: fmt.Errorf("%w: %s (TODO A5.1)", mwzookeeper.ErrUnimplemented, t.op)}`,
	"Service.fire": `
	// TODO(A5.6): send each event to the sessions that watch it on this
	// replica (s.watches.Fire).`,
	"Service.applyOp": `
	// TODO(A5.1): one tree operation: create (create2 too: the same
	// create, whose reply also carries the stat), delete or setData.
	// TODO(A5.7): check (a multi's version check: existing).
	return "", mwzookeeper.MWStat{}, fmt.Errorf("%w: %s (TODO A5.1)", mwzookeeper.ErrUnimplemented, o.Op)`,
	"Service.create": `
	// TODO(A5.1): ZooKeeper's checks, in its order: the mode (Container
	// and TTL modes: ErrUnimplemented), the path (validWritePath with
	// c.format: mwzookeeper.ValidatePath for new writes), the data size
	// (mwzookeeper.MaxData), an ephemeral node's session (ErrBadArguments
	// without one), the node's ACL (nodeACL), the parent (ErrNoNode), the
	// name (systemNode, then ErrNodeExists), an ephemeral parent
	// (ErrNoChildrenForEphemerals). Then link the new node (s.tree.link)
	// with its stat: czxid = mzxid = pzxid = the write's zxid, ctime =
	// mtime = the write's time c.ts, an ephemeral node's owner is its
	// session (EphemeralOwner); and update the parent's cversion and pzxid.
	// Return the path created and the stat.
	// TODO(A5.5): a sequential node's name ends in the parent's cversion
	// (mwzookeeper.SequentialName).
	// TODO(A5.6): record the events NodeCreated (path, the new node's
	// acl from nodeACL) and NodeChildrenChanged (parent, the parent's acl)
	// with c.event: the server sends an event only to sessions that may
	// read its node (nil: to every watcher; never the request's own
	// o.ACL, which nodeACL first fixes up).
	// TODO(A5.7): record the change for undo (c.undo).
	return "", mwzookeeper.MWStat{}, fmt.Errorf("%w: create %q (TODO A5.1)", mwzookeeper.ErrUnimplemented, o.Path)`,
	"Service.existing": `
	// TODO(A5.1): the node at path, which must be valid (validPath:
	// ErrBadArguments), if it exists (ErrNoNode) with the version asked
	// for (-1: any; else ErrBadVersion).
	return nil, fmt.Errorf("%w: %q (TODO A5.1)", mwzookeeper.ErrUnimplemented, path)`,
	"Service.delete": `
	// TODO(A5.1): a valid path (validPath), then ZooKeeper's checks in its
	// order: "/" and "/zookeeper" never go, nor (systemNode, by c.format)
	// "/zookeeper/quota" and "/zookeeper/config" (ErrBadArguments), then
	// the node and its version (existing), then no children (ErrNotEmpty);
	// deleteNode does the rest.
	return fmt.Errorf("%w: delete %q (TODO A5.1)", mwzookeeper.ErrUnimplemented, o.Path)`,
	"Service.deleteNode": `
	// TODO(A5.1): unlink the childless node at path (s.tree.unlink) and
	// update its parent's cversion and pzxid.
	// TODO(A5.6): record NodeDeleted (path, the node's acl) and
	// NodeChildrenChanged (parent, the parent's acl).
	// TODO(A5.7): record the change for undo.`,
	"Service.setData": `
	// TODO(A5.1): the node with the version asked for (permitted, with
	// mwzookeeper.PermWrite: it also checks the path by c.format and the
	// node's ACL), the data size; replace the data (s.tree.setData), version + 1, mzxid = the
	// write's zxid, mtime = its time c.ts; return the new stat.
	// TODO(A5.6): record NodeDataChanged (the node's acl).
	// TODO(A5.7): record the change for undo.
	return mwzookeeper.MWStat{}, fmt.Errorf("%w: setData %q (TODO A5.1)", mwzookeeper.ErrUnimplemented, o.Path)`,
	"Service.undo": `
	// TODO(A5.7): reverse the recorded changes, newest first, and forget
	// the events: a failed multi leaves no trace.`,

	// multi.go
	"Service.applyMulti": `
	// TODO(A5.7): apply the ops in order against the tree (applyOp); the
	// first failure undoes all of them (undo) and the multi fails with its
	// error and failedMulti's results. Each result names its op
	// (resultOp); an opTTLOff op, a TTL create its proposer refused
	// (refuseTTL, beyond the sheet), fails with ttlOff(o.Path).
	err := fmt.Errorf("%w: multi (TODO A5.7)", mwzookeeper.ErrUnimplemented)
	return failedMulti(ops, 0, err), err`,
	"failedMulti": `
	// TODO(A5.7): ZooKeeper's results of a failed multi: nil for the ops
	// before the failing one, its error for it, ErrRuntimeInconsistency for
	// the ops after it.
	out := make([]mwzookeeper.OpResult, len(ops))
	for i := range ops {
		out[i] = mwzookeeper.OpResult{Op: resultOp(&ops[i]), Err: err}
	}
	return out`,

	// order.go
	"Service.enqueue": `
	// TODO(A5.2): append r to its session's queue (s.queues) and mark it
	// queued, so that the session's requests behind it wait for it.`,
	"Service.answer": `
	// TODO(A5.1): give r its reply, once (r.done), through out (the
	// caller hands them to the clients).
	// TODO(A5.2): a request in its session's queue (r.queued) keeps its
	// reply (r.resp) instead; drain gives the replies in the queue's order
	// and runs the reads that were waiting only for it.`,
	"Service.drain": `
	// TODO(A5.2): pop the answered requests at the head of the session's
	// queue, giving their kept replies in order (r.resp; with the zxid
	// applied now if r.stamp) and executing the reads that reach the head
	// (s.read); stop at the first write or sync still in flight.`,
	"Service.behindSync": `
	// TODO(A5.2): whether the session has a sync in flight here: its later
	// writes wait for it, so that a read between the sync and them sees the
	// state the sync promised, not theirs.
	return false`,
	"Service.release": `
	// TODO(A5.2): propose the held writes of the session (r.held), in
	// order, up to its next sync still in flight. A proposal that fails is
	// answered in its turn (r.resp: ErrConnectionLoss, or ErrBadArguments
	// for zab.ErrTooLarge; r.stamp), and the queue drains past it.`,
	"Service.failAll": `
	// TODO(A5.1): answer every request still waiting here (writes in
	// s.pending, and so on) with ErrConnectionLoss and forget them: Stop
	// calls this, and a waiting client must not hang.
	// TODO(A5.2): the same when the local Zab goes LOOKING: the queued
	// reads and the syncs too, and the replies kept for their turn
	// (r.resp) go out as they are: every request is answered once. A write among them may still be delivered
	// later; it is then applied, but not answered again.`,

	// reads.go
	"Service.read": `
	// TODO(A5.1): execute a read on the applied state, at once: exists,
	// getData, getChildren(2) and getACL (its stat; a node without an ACL
	// is open to anyone) with readNode; ping answers nothing; anything
	// else is ErrUnimplemented (optional, no points: multiRead,
	// getEphemerals and getAllChildrenNumber can go to the provided
	// readBeyond).
	// A session that does not
	// exist gets ErrSessionExpired. The Response carries s.lastZxid.
	// TODO(A5.6): setWatches re-registers a reconnecting client's watches
	// (s.watches.SetWatches with s.tree.lookup).
	return &mwzookeeper.Response{Zxid: s.lastZxid, Err: fmt.Errorf("%w: %s (TODO A5.1)", mwzookeeper.ErrUnimplemented, req.Op)}`,
	"Service.readNode": `
	// TODO(A5.1): the node at the valid path (ErrNoNode), its stat, for
	// getData a copy of its data, for getChildren its children sorted.
	// TODO(A5.6): leave the watch asked for (req.Watch) while reading: a
	// data watch for exists and getData (exists also on a missing node),
	// a child watch for getChildren and getChildren2.
	return fmt.Errorf("%w: %s %q (TODO A5.1)", mwzookeeper.ErrUnimplemented, req.Op, req.Path)`,

	// sessions.go
	"Service.applyCreateSession": `
	// TODO(A5.1): open a session with the timeout and the password the
	// request carries. Its id must be unique and the same on every replica:
	// the zxid of its creation is.
	// TODO(A5.3): it was seen now (sess.seen = time.Since(s.start)).
	return mwzookeeper.Response{Err: fmt.Errorf("%w: createSession (TODO A5.1)", mwzookeeper.ErrUnimplemented)}`,
	"Service.applyCloseSession": `
	// TODO(A5.1): end the session at this point of the order (closing an
	// unknown session does nothing) and tell the host after unlocking
	// (s.closedOut).
	// TODO(A5.3): delete its ephemeral nodes, in the same order everywhere
	// (s.tree.ephemeralsOf), and forget it in s.expiring and s.active.
	// TODO(A5.6): fire the events of its deleted ephemerals (s.fire(c.events),
	// then empty c.events), then remove its watches here: as in ZooKeeper,
	// the closing session hears of them before the close's reply.`,
	"Service.applyLiveness": `
	// TODO(A5.3): each session named was seen now, on this replica's
	// monotonic clock (sess.seen = time.Since(s.start)). The leader's
	// timestamp ts plays no part: wall clocks may step.`,
	"Service.touch": `
	// TODO(A5.3): note that the session showed activity here (s.active);
	// the next liveness message carries it to every replica.`,
	"Service.reconnect": `
	// TODO(A5.2): a client comes back, to this replica or another, with its
	// session id and password. First, as ZooKeeper does, a client that has
	// seen a newer zxid than this replica applied is refused with
	// ErrConnectionLoss (it would read the past; it tries another replica);
	// then an unknown session or a wrong password is ErrSessionExpired. A
	// session that comes from another replica (sess.owner is not
	// s.myid) moves here: propose the owner change (a kindOwner message:
	// appendHeader, then the session id as a varint) before answering, so
	// that writes through its old replica fail from then on. Answer the
	// session, its password and timeout; the reconnect is activity (A5.3).
	return &mwzookeeper.Response{Zxid: s.lastZxid, Err: fmt.Errorf("%w: session %#x (TODO A5.2)", mwzookeeper.ErrUnimplemented, req.Session)}`,
	"Service.reconnectAhead": `
	// Beyond the sheet (no test grades it): a replica that does not know a
	// reconnecting session may not have applied its creation yet (the
	// provided createdAhead; a client that had no reply yet sends last
	// zxid 0). The reference syncs first and lets DeliverSync answer the
	// reconnect (request.then), as a ZooKeeper follower asks its leader;
	// answering at once in reconnect is what the sheet asks.
	return false`,
	"Service.livenessRound": `
	// TODO(A5.3): once per tick (livenessLoop): take the sessions active
	// here since the last round (s.active), sorted. On the leader, also pick
	// the sessions not seen for their timeout on its monotonic clock
	// (time.Since(s.start) - sess.seen), not already expiring and not active
	// just now: livenessLoop proposes their close, so they end at one point
	// of the order on every replica.
	return nil, nil`,

	// state.go
	"Service.writeState": `
	// TODO(A5.2): write the whole replicated state (the tree, the sessions
	// without their local seen time, lastZxid) so that readState can
	// rebuild it: Zab takes snapshots with it and sends them to replicas
	// that are far behind. Equal states must give equal bytes (sort).
	return fmt.Errorf("%w: writeState (TODO A5.2)", mwzookeeper.ErrUnimplemented)`,
	"Service.writeNode": `
	// TODO(A5.2): write n and its descendants.
	return fmt.Errorf("%w: writeNode %q (TODO A5.2)", mwzookeeper.ErrUnimplemented, path)`,
	"Service.readState": `
	// TODO(A5.2): replace the whole replicated state with the snapshot in r
	// (decodeState); an empty r is the initial state. A bad snapshot
	// changes nothing. Restored sessions get a fresh timeout (seen = now).
	return fmt.Errorf("%w: readState at %s (TODO A5.2)", mwzookeeper.ErrUnimplemented, last.Zxid)`,
	"decodeState": `
	// TODO(A5.2): parse and check a snapshot written by writeState.
	return nil, nil, 0, fmt.Errorf("%w: decodeState (TODO A5.2)", mwzookeeper.ErrUnimplemented)`,
	"decodeNode": `
	// TODO(A5.2): read one node and link it under its parent.
	d.fail("TODO(A5.2) in state.go: decodeNode")`,
}
