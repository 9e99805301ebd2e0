package shell

import (
	"slices"
	"testing"

	"zablab/client/internal/zktest"
)

// TestPersistentAndOneShotEventsKeepTheirOrder: Event.Seq numbers the
// notifications of one-shot and persistent watches alike, and the shell
// promises to print events in the handle's order, as zkCli prints the
// server's. deleteall deletes /r/a2 (a one-shot watch) before /r/a1 (a
// persistent watch); the persistent event printed at once on the receive
// goroutine while the one-shot event waited for Exec's flush, so a1's
// NodeDeleted came out before a2's. The one-shot goroutines are held back,
// as in TestFlushedEventsKeepTheirOrder, so that the order is decided.
func TestPersistentAndOneShotEventsKeepTheirOrder(t *testing.T) {
	s, out := heldBackShell(t, true)
	r := zktest.Root(t)
	for _, c := range []string{"create " + r, "create " + r + "/a1", "create " + r + "/a2",
		"get -w " + r + "/a2", "addWatch -m PERSISTENT " + r + "/a1"} {
		if _, err := s.Exec(c); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
	}
	got, printed := deleteallEvents(s, out, r)
	if want := []string{r + "/a2", r + "/a1"}; !slices.Equal(got, want) {
		t.Fatalf("deleteall's NodeDeleted events printed in the order\n%v\nthe server sent them in\n%v\noutput:\n%s", got, want, printed)
	}
}
