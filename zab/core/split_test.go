package core_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"zablab/zab/core"
)

// A pipelined Ready's early messages wait behind the held late messages of
// earlier Readys to the same peer, in order; to other peers they leave.
func TestSplitBehindKeepsTheOrderPerPeerAcrossReadys(t *testing.T) {
	msg := func(typ core.MsgType, to uint64, z core.Zxid) core.Message {
		return core.Message{Type: typ, To: to, Zxid: z}
	}
	var s core.Splitter
	held := core.Held{}
	_, later := s.SplitBehind([]core.Message{msg(core.MsgAck, 1, 5)}, held)
	held.Add(later)
	ms := []core.Message{msg(core.MsgPropose, 1, 6), msg(core.MsgPropose, 2, 6), msg(core.MsgCommit, 1, 5)}
	now, later := s.SplitBehind(ms, held)
	if d := cmp.Diff([]core.Message{ms[1]}, now); d != "" {
		t.Errorf("early messages (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]core.Message{ms[0], ms[2]}, later); d != "" {
		t.Errorf("late messages (-want +got):\n%s", d)
	}
	held.Add(later)
	held.Release(later)
	held.Release([]core.Message{msg(core.MsgAck, 1, 5)})
	if len(held) != 0 {
		t.Fatalf("held after every message was released: %v", held)
	}
	if now, _ := s.SplitBehind(ms[:1], held); len(now) != 1 {
		t.Fatalf("a PROPOSE to a peer nothing is held for waited: %v", now)
	}
}
