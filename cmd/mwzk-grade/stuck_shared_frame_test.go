package main

import (
	"strings"
	"testing"
)

// TestStuckBlockedFrameSeenInALoopFirst: two goroutines at the same
// graded line (a call into the zab library): one waits in a select with
// cases, the other is blocked on a channel send. The blocked one is what
// makes the run stuck, yet findStuck's one "seen" map, filled by the loop
// goroutine printed first, keeps its frame out of frames: the report says
// no graded goroutine was blocked.
func TestStuckBlockedFrameSeenInALoopFirst(t *testing.T) {
	dump := `panic: test timed out after 2s
	running tests:
		TestConformance/A5.1/Session (2s)

goroutine 21 [select, 1 minutes]:
zablab/zab.(*Peer).wait(0xc000120000)
	/work/tree/zab/peer.go:80 +0x45
zablab/assignments/aufgabe5.(*Service).propose(0xc000120000)
	/work/tree/assignments/aufgabe5/service.go:57 +0x45
created by zablab/assignments/aufgabe5.(*Service).Start in goroutine 7
	/work/tree/assignments/aufgabe5/service.go:20 +0x45

goroutine 22 [chan send, 1 minutes]:
zablab/zab.(*Peer).submit(0xc000120000)
	/work/tree/zab/peer.go:90 +0x45
zablab/assignments/aufgabe5.(*Service).propose(0xc000120000)
	/work/tree/assignments/aufgabe5/service.go:57 +0x45
created by zablab/assignments/aufgabe5.(*Service).Start in goroutine 7
	/work/tree/assignments/aufgabe5/service.go:20 +0x45
`
	s, ok := findStuck(strings.Split(dump, "\n"))
	if !ok {
		t.Fatal("timeout not found")
	}
	if len(s.frames) == 0 {
		t.Errorf("goroutine 22 is blocked on a channel in (*Service).propose (service.go:57), yet frames is empty (loops %q); the report says: %q", s.loops, s.lines(""))
	}
}
