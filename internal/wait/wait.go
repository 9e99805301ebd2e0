package wait

import (
	"testing"
	"time"
)

// For polls cond every 2 ms until it holds; after d the test fails,
// naming what it waited for.
func For(t testing.TB, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.After(d)
	poll := time.NewTicker(2 * time.Millisecond)
	defer poll.Stop()
	for !cond() {
		select {
		case <-deadline:
			t.Fatalf("timed out after %s waiting for %s", d, what)
		case <-poll.C:
		}
	}
}
