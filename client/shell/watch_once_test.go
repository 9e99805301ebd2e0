package shell

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"zablab/client/internal/zktest"
)

// TestOneChangePrintsOnce: zkCli leaves every watch with its one default
// watcher, and the Java client hands a notification to each watcher once
// however many of its watches it fires; so one change prints one WATCHER::
// block. This shell printed it once per watch it fired: a data and a child
// watch of a deleted node, or a one-shot and a persistent watch of a path.
func TestOneChangePrintsOnce(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup []string // %s is the node
		do    string
		event string
	}{
		{"get -w and ls -w, then delete", []string{"get -w %s", "ls -w %s"}, "delete %s", "type:NodeDeleted path:%s"},
		{"addWatch and get -w, then set", []string{"addWatch -m PERSISTENT %s", "get -w %s"}, "set %s v2", "type:NodeDataChanged path:%s"},
		{"get -w and addWatch, then set", []string{"get -w %s", "addWatch %s"}, "set %s v2", "type:NodeDataChanged path:%s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			s := New(zktest.Shared(t).Addrs[0], Options{Out: &out, Err: &out, ConnectTimeout: 20 * time.Second})
			if err := s.Connect(); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			node := zktest.Root(t)
			s.Exec("create " + node + " v1")
			for _, l := range c.setup {
				s.Exec(strings.ReplaceAll(l, "%s", node))
			}
			s.Exec(strings.ReplaceAll(c.do, "%s", node))
			// Exec prints the one-shot events before it returns; a
			// persistent watch prints on the receive goroutine before
			// the reply: both are in by now. A later command's reply
			// comes after any second notification the server sent.
			s.Exec("ls /")
			s.mu.Lock()
			printed := out.String()
			s.mu.Unlock()
			if n := strings.Count(printed, strings.ReplaceAll(c.event, "%s", node)+"\n"); n != 1 {
				t.Errorf("%q printed %d times, zkCli prints it once; output:\n%s", strings.ReplaceAll(c.event, "%s", node), n, printed)
			}
		})
	}
}
