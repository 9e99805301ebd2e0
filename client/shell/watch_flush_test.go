package shell

import (
	"strings"
	"testing"

	"zablab/client/internal/zktest"
)

// TestWatchEventsPrintedBeforeExecReturns: the events a command's reply
// implies (removewatches' ...WatchRemoved, a set's NodeDataChanged) are
// printed before Exec returns, even while the watch's goroutine has not
// run yet. Once they raced the next commands: on a loaded machine
// TestModesAndBeyondLikeZkCli read the output after quit without the
// last ChildWatchRemoved. The goroutines are held back here, so the race
// is lost every time.
func TestWatchEventsPrintedBeforeExecReturns(t *testing.T) {
	s, out := heldBackShell(t, true)
	r := zktest.Root(t)
	for _, c := range []struct{ arm, trigger, want string }{
		{"ls -w " + r, "removewatches " + r + " -c", "type:ChildWatchRemoved path:" + r},
		{"get -w " + r + "/x", "removewatches " + r + "/x -d", "type:DataWatchRemoved path:" + r + "/x"},
		{"get -w " + r + "/x", "set " + r + "/x two", "type:NodeDataChanged path:" + r + "/x"},
		{"stat -w " + r + "/y", "create " + r + "/y", "type:NodeCreated path:" + r + "/y"},
	} {
		for _, cmd := range []string{"create " + r, "create " + r + "/x", c.arm, c.trigger} {
			s.Exec(cmd)
		}
		s.mu.Lock()
		printed := out.String()
		out.Reset()
		s.mu.Unlock()
		if n := strings.Count(printed, "WatchedEvent state:SyncConnected "+c.want+"\n"); n != 1 {
			t.Errorf("%s, %s: the event %q printed %d times before Exec returned, want once; output:\n%s",
				c.arm, c.trigger, c.want, n, printed)
		}
	}
}
