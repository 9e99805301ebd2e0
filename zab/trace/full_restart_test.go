package trace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAFullTraceGetsNothingAtARestart: a peer's trace reaches its limit
// on a send, whose KindFull line is shorter than the send it replaces, so
// the file can stay under the size Create takes for full; the peer
// restarts with the same limit and must add nothing after the KindFull
// line (a review found a third of the limits growing).
func TestAFullTraceGetsNothingAtARestart(t *testing.T) {
	const inc1, inc2 = 0xdeadbeefcafef00d, 0x0123456789abcdef
	send := func(n uint64) *Event { // a VOTE as a real peer traces it
		return &Event{Peer: 3, Inc: inc1, N: n, Time: 1750000000123456789, Kind: KindSend,
			Msg: &Msg{Link: n, Hash: 0xfedcba9876543210, Type: "VOTE", From: 3, To: 1, Epoch: 4, Round: 17,
				State: "LOOKING", Vote: &Vote{Leader: 3, Epoch: 4, Zxid: 0x400000123}, Zxid: 0x400000123}}
	}
	start := &Event{Peer: 3, Inc: inc2, N: 1, Time: 1750000009123456789, Kind: KindStart, Zxid: 0x400000123, Epoch: 4,
		Text: "pid 4242, incarnation 0x123456789abcdef; its disk holds epochs accepted 4, current 4, log up to 0x400000123"}
	grew := 0
	for limit := int64(4096); limit < 4096+600; limit++ {
		path := filepath.Join(t.TempDir(), "peer3.trace")
		w, err := Create(path, limit)
		if err != nil {
			t.Fatal(err)
		}
		for n := uint64(1); !w.Full(); n++ {
			w.Add(send(n))
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		before, _ := os.ReadFile(path)
		w, err = Create(path, limit) // the peer restarts
		if err != nil {
			t.Fatal(err)
		}
		w.Add(start)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		after, _ := os.ReadFile(path)
		if len(after) != len(before) {
			grew++
			if grew == 1 {
				t.Errorf("limit %d: the file ended in a KindFull line at %d bytes; the restart appended %q",
					limit, len(before), after[len(before):])
			}
		}
		evs, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range evs {
			if e.Kind == KindFull && i != len(evs)-1 {
				if grew == 1 {
					t.Errorf("limit %d: events after the KindFull line: %d (last %s of incarnation %#x); %s",
						limit, len(evs)-1-i, evs[len(evs)-1].Kind, evs[len(evs)-1].Inc, strings.TrimSpace(string(AppendJSON(nil, &evs[len(evs)-1]))))
				}
				break
			}
		}
	}
	if grew > 0 {
		t.Errorf("%d of 600 limits: a full trace grew at a restart", grew)
	}
}
