package aufgabe5

import (
	"zablab/mwzookeeper"
)

// request is one request of a session waiting on this replica: a write or
// sync until its delivery is applied, a read until the session's earlier
// writes and syncs were answered (A5.2, per-session order).
type request struct {
	write   bool // write or sync; false: a read waiting its turn
	sync    bool
	done    bool // answered
	queued  bool // in its session's queue: its reply goes out in the queue's order
	reqno   uint64
	held    []byte // a write behind a sync of its session: proposed once the sync is answered
	path    string // a sync's path, echoed in its reply as ZooKeeper does
	session int64
	req     *mwzookeeper.Request // reads only
	reply   func(*mwzookeeper.Response)
	// resp is the reply of a request answered before it reached the head
	// of its queue (a write refused before it was proposed, or whose
	// proposal failed): drain gives it in turn, stamped with the zxid then
	// applied if stamp, so a session's reply zxids never go back.
	resp  *mwzookeeper.Response
	stamp bool
	// then answers a reconnect that waited for a sync (reconnectAhead):
	// DeliverSync gives its reply instead of the sync's.
	then func() *mwzookeeper.Response
}

// outReply is a reply to give once the apply lock is released (reply
// functions must not block, but need not be quick).
type outReply struct {
	reply func(*mwzookeeper.Response)
	resp  *mwzookeeper.Response
}

func flush(out []outReply) {
	for i := range out {
		out[i].reply(out[i].resp)
		out[i] = outReply{}
	}
}

// enqueue appends r to its session's queue. s.mu must be held (A5.2).
func (s *Service) enqueue(r *request) {
	// TODO(A5.2): append r to its session's queue (s.queues) and mark it
	// queued, so that the session's requests behind it wait for it.
}

// answer gives r its reply (once) and runs the reads of r's session that
// were only waiting for it. s.mu must be held (A5.1, A5.2).
func (s *Service) answer(r *request, resp *mwzookeeper.Response, out *[]outReply) {
	// TODO(A5.1): give r its reply, once (r.done), through out (the
	// caller hands them to the clients).
	// TODO(A5.2): a request in its session's queue (r.queued) keeps its
	// reply (r.resp) instead; drain gives the replies in the queue's order
	// and runs the reads that were waiting only for it.
}

// drain pops the answered head of session's queue, giving the replies
// kept for it in order, and executes the reads that reach the head; it
// stops at the first write still in flight (A5.2).
func (s *Service) drain(session int64, out *[]outReply) {
	// TODO(A5.2): pop the answered requests at the head of the session's
	// queue, giving their kept replies in order (r.resp; with the zxid
	// applied now if r.stamp) and executing the reads that reach the head
	// (s.read); stop at the first write or sync still in flight.
}

// behindSync says whether session has a sync in flight: its later writes
// wait for it, so that a read between the sync and them sees the state
// the sync promised and not theirs. s.mu must be held (A5.2).
func (s *Service) behindSync(session int64) bool {
	// TODO(A5.2): whether the session has a sync in flight here: its later
	// writes wait for it, so that a read between the sync and them sees the
	// state the sync promised, not theirs.
	return false
}

// release proposes the held writes of session up to its next sync still
// in flight, in order. A write whose proposal fails is answered as in
// failOne, and the session's queue drains past it. s.mu must be held
// (Propose takes no I/O and may be called from callbacks) (A5.2).
func (s *Service) release(session int64, out *[]outReply) {
	// TODO(A5.2): propose the held writes of the session (r.held), in
	// order, up to its next sync still in flight. A proposal that fails is
	// answered in its turn (r.resp: ErrConnectionLoss, or ErrBadArguments
	// for zab.ErrTooLarge; r.stamp), and the queue drains past it.
}

// failAll answers every request waiting on this replica with
// ConnectionLoss: the local Zab is LOOKING or the service stops (A5.1, A5.2). A
// write among them may still be delivered later: it is then applied but
// not answered again. s.mu must be held.
func (s *Service) failAll(why string, out *[]outReply) {
	// TODO(A5.1): answer every request still waiting here (writes in
	// s.pending, and so on) with ErrConnectionLoss and forget them: Stop
	// calls this, and a waiting client must not hang.
	// TODO(A5.2): the same when the local Zab goes LOOKING: the queued
	// reads and the syncs too, and the replies kept for their turn
	// (r.resp) go out as they are: every request is answered once. A write among them may still be delivered
	// later; it is then applied, but not answered again.
}
