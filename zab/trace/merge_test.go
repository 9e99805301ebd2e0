package trace

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// fakeRun plays peers that exchange messages over FIFO links that lose
// some, with clocks skewed by up to a second either way, and kills and
// restarts peers without a stop record. It keeps each peer's trace and,
// per receipt, the send it received. With unique, no two messages have
// the same content.
type fakeRun struct {
	r      *rand.Rand
	files  [][]Event
	inc    []uint64
	n      []uint64
	skew   []int64
	links  map[[2]uint64][]Event // in flight, per link
	link   map[[2]uint64]uint64  // sender's count per link, this incarnation
	truth  map[Ref]Ref           // receipt → its send
	now    int64
	unique bool
	sent   uint64
}

func newFakeRun(seed uint64, peers int) *fakeRun {
	f := &fakeRun{r: rand.New(rand.NewPCG(seed, 9)), files: make([][]Event, peers+1), inc: make([]uint64, peers+1),
		n: make([]uint64, peers+1), skew: make([]int64, peers+1), links: map[[2]uint64][]Event{},
		link: map[[2]uint64]uint64{}, truth: map[Ref]Ref{}}
	for p := 1; p <= peers; p++ {
		f.skew[p] = f.r.Int64N(2e9) - 1e9
		f.start(uint64(p))
	}
	return f
}

func (f *fakeRun) add(p uint64, e Event) Event {
	f.n[p]++
	e.Peer, e.Inc, e.N, e.Time = p, f.inc[p], f.n[p], f.now+f.skew[p]
	f.files[p] = append(f.files[p], e)
	return e
}

func (f *fakeRun) start(p uint64) {
	f.inc[p] = f.r.Uint64()
	f.n[p] = 0
	for k := range f.link {
		if k[0] == p {
			delete(f.link, k)
		}
	}
	f.add(p, Event{Kind: KindStart})
}

func (f *fakeRun) step(peers int) {
	f.now += f.r.Int64N(1e6)
	from, to := uint64(1+f.r.IntN(peers)), uint64(1+f.r.IntN(peers))
	l := [2]uint64{from, to}
	switch x := f.r.IntN(20); {
	case x == 0: // kill -9 and restart: in-flight messages from it stay in flight (TCP buffers)
		f.start(from)
	case x < 10 && from != to:
		f.link[l]++
		// Few distinct contents, so that identical messages follow each
		// other on a link, as repeated votes and pings do.
		f.sent++
		m := &Msg{Type: "VOTE", From: from, To: to, Hash: 1 + f.r.Uint64N(3), Link: f.link[l]}
		if f.unique {
			m.Hash = 100 + f.sent
		}
		e := f.add(from, Event{Kind: KindSend, Msg: m})
		if f.r.IntN(5) > 0 { // one in five is lost
			f.links[l] = append(f.links[l], e)
		}
	default:
		if q := f.links[l]; len(q) > 0 {
			s := q[0]
			f.links[l] = q[1:]
			m := *s.Msg
			m.Link = 0
			e := f.add(to, Event{Kind: KindRecv, Msg: &m})
			f.truth[e.Ref()] = s.Ref()
		}
	}
}

// TestMergeOrdersByMessagesNotClocks: whatever the clocks say, every
// receipt comes after a send of the same message on its link, every
// peer's events keep their order, Lamport clocks grow along both, and
// every kill is inferred.
func TestMergeOrdersByMessagesNotClocks(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		f := newFakeRun(seed, 3)
		for i := 0; i < 3000; i++ {
			f.step(3)
		}
		out, st := Merge(f.files[1:])
		checkMerged(t, seed, f, out, st)
	}
}

func checkMerged(t *testing.T, seed uint64, f *fakeRun, out []Event, st MergeStats) {
	t.Helper()
	in := 0
	kills := 0
	for _, evs := range f.files[1:] {
		in += len(evs)
		for i := 1; i < len(evs); i++ {
			if evs[i].Inc != evs[i-1].Inc {
				kills++
			}
		}
	}
	if len(out) != in+kills || st.Crashes != kills || st.Broken != 0 {
		t.Fatalf("seed %d: %d events out of %d in with %d kills; stats %+v", seed, len(out), in, kills, st)
	}
	sendAt := map[uint64]int{}
	lastOf := map[uint64]int{} // peer → index of its previous event
	matched := 0
	for i, e := range out {
		if p, ok := lastOf[e.Peer]; ok && out[p].Lamport >= e.Lamport {
			t.Fatalf("seed %d: %v after %v on peer %d without a larger Lamport clock", seed, e, out[p], e.Peer)
		}
		lastOf[e.Peer] = i
		switch e.Kind {
		case KindSend:
			sendAt[e.Msg.ID] = i
		case KindRecv:
			if e.Msg.ID == 0 {
				continue
			}
			s, ok := sendAt[e.Msg.ID]
			if !ok {
				t.Fatalf("seed %d: receipt %d (%+v) comes before its send", seed, i, e)
			}
			if out[s].Msg.Hash != e.Msg.Hash || out[s].Msg.From != e.Msg.From || out[s].Msg.To != e.Msg.To ||
				out[s].Lamport >= e.Lamport {
				t.Fatalf("seed %d: receipt %+v matched to send %+v", seed, e, out[s])
			}
			matched++
		}
	}
	if matched != len(f.truth) || st.Orphans != 0 {
		t.Fatalf("seed %d: %d receipts matched, %d orphans; every one of the %d has its send in the traces",
			seed, matched, st.Orphans, len(f.truth))
	}
}

// TestMergeFindsTheTrueSendWhenMessagesDiffer: with every message's
// content distinct, the match is exactly the send it came from, also
// across lost messages and kills.
func TestMergeFindsTheTrueSendWhenMessagesDiffer(t *testing.T) {
	f := newFakeRun(7, 3)
	f.unique = true
	for i := 0; i < 3000; i++ {
		f.step(3)
	}
	out, st := Merge(f.files[1:])
	checkMerged(t, 7, f, out, st)
	sendOf := map[uint64]Ref{} // send ID → the send
	for _, e := range out {
		switch {
		case e.Kind == KindSend:
			sendOf[e.Msg.ID] = e.Ref()
		case e.Kind == KindRecv && sendOf[e.Msg.ID] != f.truth[e.Ref()]:
			t.Fatalf("receipt %v matched the send %v, but came from %v", e.Ref(), sendOf[e.Msg.ID], f.truth[e.Ref()])
		}
	}
}

// TestMergeBreaksAContradictoryMatch: two identical messages a→b, the
// first lost; b answers the received one before a sends the second. The
// fingerprint alone would match the receipt with the first send, which is
// fine; but if only the second was ever traced as sent after b's answer
// arrived, matching it would be a cycle. Merge gives such a match up
// instead of looping.
func TestMergeBreaksAContradictoryMatch(t *testing.T) {
	a := []Event{
		{Peer: 1, Inc: 1, N: 1, Kind: KindRecv, Msg: &Msg{Type: "ACK", From: 2, To: 1, Hash: 5}},
		{Peer: 1, Inc: 1, N: 2, Kind: KindSend, Msg: &Msg{Type: "PING", From: 1, To: 2, Hash: 4}},
	}
	b := []Event{
		{Peer: 2, Inc: 1, N: 1, Kind: KindRecv, Msg: &Msg{Type: "PING", From: 1, To: 2, Hash: 4}},
		{Peer: 2, Inc: 1, N: 2, Kind: KindSend, Msg: &Msg{Type: "ACK", From: 2, To: 1, Hash: 5}},
	}
	out, st := Merge([][]Event{a, b})
	if len(out) != 4 || st.Broken != 1 {
		t.Fatalf("merged %d events with %d matches given up, want 4 and 1: %+v", len(out), st.Broken, st)
	}
}

// TestMergeCountsPeerLostApart: a peer noticing a lost connection traces
// a PEERLOST receipt that nobody sent; it is no receipt without a send.
func TestMergeCountsPeerLostApart(t *testing.T) {
	a := []Event{
		{Peer: 1, Inc: 1, N: 1, Kind: KindSend, Msg: &Msg{Type: "PING", From: 1, To: 2, Hash: 4}},
		{Peer: 1, Inc: 1, N: 2, Kind: KindRecv, Msg: &Msg{Type: "PEERLOST", From: 2, To: 1, Hash: 9}},
		{Peer: 1, Inc: 1, N: 3, Kind: KindRecv, Msg: &Msg{Type: "ACK", From: 3, To: 1, Hash: 5}},
	}
	b := []Event{{Peer: 2, Inc: 1, N: 1, Kind: KindRecv, Msg: &Msg{Type: "PING", From: 1, To: 2, Hash: 4}}}
	_, st := Merge([][]Event{a, b})
	if st.Orphans != 1 || st.PeerLost != 1 || st.Matched != 1 {
		t.Fatalf("merge: %+v; want the ACK alone without a send, 1 lost connection, 1 match", st)
	}
	if s := st.String(); !strings.Contains(s, "1 receipts without a send, 1 lost connections noticed") {
		t.Fatalf("stats read %q", s)
	}
}
