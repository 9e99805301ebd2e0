package aufgabe5

import (
	"errors"
	"fmt"

	"zablab/mwzookeeper"
	"zablab/zab"
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
	if r.session != 0 || r.write {
		r.queued = true
		s.queues[r.session] = append(s.queues[r.session], r)
	}
}

// answer gives r its reply (once) and runs the reads of r's session that
// were only waiting for it. s.mu must be held (A5.2).
func (s *Service) answer(r *request, resp *mwzookeeper.Response, out *[]outReply) {
	if r.done {
		return
	}
	r.done = true
	if !r.queued {
		*out = append(*out, outReply{r.reply, resp})
		return
	}
	r.resp = resp
	s.drain(r.session, out)
}

// drain pops the answered head of session's queue, giving the replies
// kept for it in order, and executes the reads that reach the head; it
// stops at the first write still in flight (A5.2).
func (s *Service) drain(session int64, out *[]outReply) {
	q := s.queues[session]
	i := 0
	for ; i < len(q); i++ {
		h := q[i]
		if h.write && !h.done {
			break
		}
		switch {
		case h.resp != nil:
			if h.stamp {
				h.resp.Zxid = s.lastZxid
			}
			*out = append(*out, outReply{h.reply, h.resp})
		case !h.write && !h.done:
			*out = append(*out, outReply{h.reply, s.read(h.req)})
		}
		h.done, h.resp = true, nil
		q[i] = nil
	}
	if i == len(q) {
		delete(s.queues, session)
	} else if i > 0 {
		s.queues[session] = q[i:]
	}
}

// behindSync says whether session has a sync in flight: its later writes
// wait for it, so that a read between the sync and them sees the state
// the sync promised and not theirs. s.mu must be held (A5.2).
func (s *Service) behindSync(session int64) bool {
	for _, r := range s.queues[session] {
		if r.sync && !r.done {
			return true
		}
	}
	return false
}

// release proposes the held writes of session up to its next sync still
// in flight, in order. A write whose proposal fails is answered as in
// failOne, and the session's queue drains past it. s.mu must be held
// (Propose takes no I/O and may be called from callbacks) (A5.2).
func (s *Service) release(session int64, out *[]outReply) {
	failed := false
	for _, r := range s.queues[session] {
		if r.sync && !r.done {
			break
		}
		if r.held == nil || r.done {
			continue
		}
		msg := r.held
		r.held = nil
		if _, err := s.zab.Propose(msg); err != nil {
			code := mwzookeeper.ErrConnectionLoss
			if errors.Is(err, zab.ErrTooLarge) {
				code = mwzookeeper.ErrBadArguments
			}
			delete(s.pending, r.reqno)
			r.done, r.stamp, failed = true, true, true
			r.resp = &mwzookeeper.Response{Err: fmt.Errorf("%w: session %#x: %w", code, session, err)}
		}
	}
	if failed {
		s.drain(session, out)
	}
}

// failAll answers every request waiting on this replica with
// ConnectionLoss: the local Zab is LOOKING or the service stops (A5.2). A
// write among them may still be delivered later: it is then applied but
// not answered again. s.mu must be held.
func (s *Service) failAll(why string, out *[]outReply) {
	for _, q := range s.queues {
		for _, r := range q {
			switch {
			case r.resp != nil: // answered, waiting its turn: its turn is now
				if r.stamp {
					r.resp.Zxid = s.lastZxid
				}
				*out = append(*out, outReply{r.reply, r.resp})
				r.resp = nil
			case !r.done:
				r.done = true
				*out = append(*out, outReply{r.reply, &mwzookeeper.Response{Zxid: s.lastZxid,
					Err: fmt.Errorf("%w: session %#x: %s", mwzookeeper.ErrConnectionLoss, r.session, why)}})
			}
		}
	}
	clear(s.queues)
	clear(s.pending)
	clear(s.syncs)
}
