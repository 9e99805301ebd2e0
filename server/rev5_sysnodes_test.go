package server

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/realzk"
)

// rev5SysNodesScript creates, then deletes, /zookeeper/quota and
// /zookeeper/config. ZooKeeper has both nodes from the start (create:
// NodeExists) and refuses to delete them (BadArguments). The change makes
// ours refuse the delete but not the create: a client makes a node it can
// never remove.
func rev5SysNodesScript(t *testing.T, addr string) []string {
	s := &scripter{t: t}
	c := zkClient(t, 5*time.Second, addr)
	for _, p := range []string{"/zookeeper/quota", "/zookeeper/config"} {
		_, err := c.Create(p, nil, 0, zk.WorldACL(zk.PermAll))
		s.note("create "+p, err)
		s.note("delete "+p, c.Delete(p, -1))
		ok, _, err := c.Exists(p)
		s.note("  exists "+p, err, ok)
	}
	return s.out
}

func TestRev5SystemNodesAsZooKeeper(t *testing.T) {
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	want := rev5SysNodesScript(t, realzk.StartT(t))
	got := rev5SysNodesScript(t, startA5(t, "").Addr().String())
	sameLines(t, want, got)
	if t.Failed() || os.Getenv("ZABLAB_DIFFFUZZ_SHOW") != "" {
		t.Logf("ZooKeeper:\n%s\nours:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}
