package transport

import (
	"testing"

	"zablab/zab/core"
)

// pending drains what is waiting on tr's queue, without blocking.
// A closed queue ends the drain.
func pending(tr Transport) []core.Message {
	var ms []core.Message
	for {
		select {
		case m, ok := <-tr.Recv():
			if !ok {
				return ms
			}
			ms = append(ms, m)
		default:
			return ms
		}
	}
}

func ping(from, to uint64) core.Message {
	return core.Message{Type: core.MsgPing, From: from, To: to}
}

func TestMemExchange(t *testing.T) {
	n := NewMemNetwork(0)
	a, b := n.Endpoint(1), n.Endpoint(2)
	if n.Endpoint(1) != a {
		t.Fatal("Endpoint(1) made a second endpoint for a live peer")
	}
	data := []byte("create /a")
	a.Send(core.Message{Type: core.MsgRequest, From: 1, To: 2, Entries: []core.Entry{{Seq: 1, Data: data}}})
	b.Send(ping(2, 1))
	data[0] = 'X' // the receiver has its own copy, as over TCP
	if got := pending(b); len(got) != 1 || string(got[0].Entries[0].Data) != "create /a" {
		t.Fatalf("peer 2 received %v", got)
	}
	if got := pending(a); len(got) != 1 || got[0].From != 2 {
		t.Fatalf("peer 1 received %v", got)
	}
	if s := n.Stats(1); s.Sent != 1 || s.Received != 1 || s.Dropped != 0 {
		t.Errorf("Stats(1) = %+v", s)
	}
}

func TestMemDrops(t *testing.T) {
	n := NewMemNetwork(4)
	a, b := n.Endpoint(1), n.Endpoint(2)
	for range 10 {
		a.Send(ping(1, 2))
	}
	a.Send(ping(1, 3))          // nobody there
	a.Send(ping(2, 1))          // not from its sender
	a.Send(core.Message{To: 2}) // no type: the codec refuses it
	if got := len(pending(b)); got != 4 {
		t.Errorf("peer 2 got %d messages through a queue of 4", got)
	}
	if s := n.Stats(1); s.Dropped != 9 || s.Sent != 4 {
		t.Errorf("Stats(1) = %+v, want 4 sent and 9 dropped", s)
	}
}

func TestMemCutAndPartition(t *testing.T) {
	n := NewMemNetwork(0)
	e := map[uint64]Transport{1: n.Endpoint(1), 2: n.Endpoint(2), 3: n.Endpoint(3)}
	reaches := func(from, to uint64) bool {
		pending(e[to])
		e[from].Send(ping(from, to))
		return len(pending(e[to])) == 1
	}
	n.Cut(1, 2)
	if reaches(1, 2) || !reaches(2, 1) {
		t.Error("Cut(1, 2) must stop 1→2 and only that")
	}
	n.Heal(1, 2)
	if !reaches(1, 2) {
		t.Error("Heal(1, 2) did not restore 1→2")
	}
	n.Partition([]uint64{1}, []uint64{2, 3})
	for _, p := range [][2]uint64{{1, 2}, {2, 1}, {1, 3}, {3, 1}} {
		if reaches(p[0], p[1]) {
			t.Errorf("%d→%d crosses the partition", p[0], p[1])
		}
	}
	if !reaches(2, 3) || !reaches(3, 2) {
		t.Error("2 and 3 are on the same side and must still talk")
	}
	n.HealAll()
	if !reaches(1, 3) || !reaches(3, 1) {
		t.Error("HealAll did not heal the partition")
	}
}

func TestMemCloseAndRestart(t *testing.T) {
	n := NewMemNetwork(0)
	a, b := n.Endpoint(1), n.Endpoint(2)
	a.Send(ping(1, 2))
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if got := len(pending(b)); got != 1 {
		t.Errorf("a closed endpoint still yields what arrived before: got %d", got)
	}
	if _, ok := <-b.Recv(); ok {
		t.Error("Recv not closed after Close")
	}
	a.Send(ping(1, 2)) // to a closed peer: dropped, no panic
	b.Send(ping(2, 1)) // from a closed peer: dropped
	if got := pending(a); len(got) != 0 {
		t.Errorf("a closed endpoint sent %v", got)
	}
	b2 := n.Endpoint(2)
	if b2 == b {
		t.Fatal("Endpoint after Close returned the closed endpoint")
	}
	a.Send(ping(1, 2))
	if got := len(pending(b2)); got != 1 {
		t.Errorf("restarted peer received %d messages, want 1", got)
	}
}

// The in-memory twin satisfies the same interface as TCP.
var _, _ Transport = (*TCP)(nil), (*memEndpoint)(nil)
