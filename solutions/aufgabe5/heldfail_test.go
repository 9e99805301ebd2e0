package aufgabe5

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
	"zablab/zab"
)

// TestHeldWriteFailureDrainsItsSession: a write submitted while its
// session's sync is in flight is held and proposed by release() at
// DeliverSync. When that Propose fails (here zab.ErrTooLarge: a multi of
// 17 setData ops of 1 MiB each passes tooLarge, op by op, but is over
// zab.MaxMessage), the write is answered BadArguments, as the same multi
// without a sync in flight is, and the read queued behind it is answered.
// (Found in review: the held write got ConnectionLoss and the session's
// queue never drained, so every later read of the session waited for ever.)
func TestHeldWriteFailureDrainsItsSession(t *testing.T) {
	e := start(t, 3, svctest.Options{DoTimeout: 5 * time.Second})
	f := follower(t, e)
	s := e.Session(t, f, time.Minute)
	big := make([]byte, mwzookeeper.MaxData)
	ops := make([]mwzookeeper.Op, 17)
	for i := range ops {
		ops[i] = mwzookeeper.Op{Op: mwzookeeper.OpSetData, Path: "/", Data: big, Version: -1}
	}
	held := 0
	for attempt := 1; attempt <= 5; attempt++ {
		syncCh := e.DoAsync(f, &req{Op: mwzookeeper.OpSync, Session: s, Path: "/"})
		multiCh := e.DoAsync(f, &req{Op: mwzookeeper.OpMulti, Session: s, Ops: ops})
		readCh := e.DoAsync(f, &req{Op: mwzookeeper.OpExists, Session: s, Path: "/"})
		mustOK(t, "sync", <-syncCh)
		var m *resp
		select {
		case m = <-multiCh:
		case <-time.After(5 * time.Second):
			t.Fatalf("attempt %d: the 17 MiB multi behind a sync was never answered", attempt)
		}
		if errors.Is(m.Err, zab.ErrTooLarge) {
			held++ // refused by Zab's Propose (not by the size check of the ops)
		}
		mustErr(t, fmt.Sprintf("attempt %d: 17 MiB multi", attempt), m, mwzookeeper.ErrBadArguments)
		select {
		case r := <-readCh:
			mustOK(t, "exists / after the multi", r)
		case <-time.After(5 * time.Second):
			t.Fatalf("attempt %d: the exists queued behind the multi (answered %v) was never answered: the session is stuck on replica %d", attempt, m.Err, f)
		}
	}
	t.Logf("%d of 5 multis refused by Zab", held)
}
