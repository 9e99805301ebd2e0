package aufgabe5

import (
	"errors"
	"fmt"
	"strings"
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

// TestKeptReplyGoesOutWhenTheReplicaLosesItsLeader: replies given out of
// turn (a write answered while an earlier one of its session waits, a
// write refused before it was proposed) are kept until the session's
// earlier write is answered; when the replica goes LOOKING, all are
// answered, in order, each with its own reply, exactly once.
func TestKeptReplyGoesOutWhenTheReplicaLosesItsLeader(t *testing.T) {
	s, cb := offline(t)
	deliver(cb, &req{Op: mwzookeeper.OpCreateSession, Timeout: 1000}, 2, 1)
	const sess = 2
	got := make(chan string, 4)
	replyAs := func(name string) func(*resp) {
		return func(r *resp) { got <- fmt.Sprintf("%s: %v", name, r.Err) }
	}
	s.mu.Lock()
	s.serving = true
	var w [2]*request
	for i := range w {
		s.nextReq++
		w[i] = &request{write: true, session: sess, reqno: s.nextReq, reply: replyAs(fmt.Sprintf("write %d", i))}
		s.pending[w[i].reqno] = w[i]
		s.enqueue(w[i])
	}
	var out []outReply
	delete(s.pending, w[1].reqno)
	s.answer(w[1], &resp{Zxid: 3}, &out) // kept: write 0 waits
	s.mu.Unlock()
	if len(out) != 0 {
		t.Fatalf("write 1 answered before write 0 of its session")
	}
	s.submitWrite(&req{Op: mwzookeeper.OpSetData, Session: sess, Path: "/", Data: make([]byte, mwzookeeper.MaxData+1), Version: -1},
		replyAs("too large"))
	select {
	case g := <-got:
		t.Fatalf("answered before the session's earlier writes: %s", g)
	default:
	}
	cb.Status(roleLooking, "")
	for _, want := range []string{"write 0: " + mwzookeeper.ErrConnectionLoss.Error(), "write 1: <nil>", "too large: " + mwzookeeper.ErrBadArguments.Error()} {
		select {
		case g := <-got:
			if !strings.HasPrefix(g, want) {
				t.Fatalf("got %q, want %q next", g, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no reply %q after the replica went LOOKING", want)
		}
	}
}
