package aufgabe5

import (
	"errors"
	"testing"
	"time"

	"zablab/mwzookeeper"
	"zablab/zab"
)

// TestRejectedOwnProposalIsAnswered: a delivered message that does not
// decode changes no state, but if this replica's run proposed it, its
// request is answered (BadArguments, naming why) and the session's reads
// behind it run: never left waiting. Here the message is one this
// replica registered and then delivered cut short.
func TestRejectedOwnProposalIsAnswered(t *testing.T) {
	s, cb := offline(t)
	deliver(cb, &req{Op: mwzookeeper.OpCreateSession, Timeout: 1000}, 2, 1)
	const sess = 2
	got := make(chan *resp, 2)
	s.mu.Lock()
	s.nextReq++
	w := &request{write: true, session: sess, reqno: s.nextReq, reply: func(r *resp) { got <- r }}
	s.pending[w.reqno] = w
	s.enqueue(w)
	s.enqueue(&request{session: sess, req: &req{Op: mwzookeeper.OpExists, Session: sess, Path: "/"}, reply: func(r *resp) { got <- r }})
	s.mu.Unlock()
	msg := appendRequest(nil, header{s.myid, s.inc, w.reqno}, &req{Op: mwzookeeper.OpCreate, Session: sess, Path: "/a"}, nil, false)
	cb.Deliver(zab.TxnCookie{Zxid: 3, Proposer: s.myid, Timestamp: 3e6}, msg[:len(msg)-1])
	for i, what := range []string{"the rejected create", "the exists behind it"} {
		select {
		case r := <-got:
			if i == 0 && !errors.Is(r.Err, mwzookeeper.ErrBadArguments) {
				t.Fatalf("%s: got %v, want %v", what, r.Err, mwzookeeper.ErrBadArguments)
			}
			if i == 1 {
				mustOK(t, what, r)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s was never answered", what)
		}
	}
	if s.lastZxid != 2 {
		t.Fatalf("the rejected message moved lastZxid to %#x", s.lastZxid)
	}
}
