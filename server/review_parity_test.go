package server

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/realzk"
)

// reviewScript: an ACL of the sasl scheme on a server without a SASL
// authentication provider, and a create (opcode 1, as go-zookeeper's
// Create sends it) with the container flag, whose last child goes.
func reviewScript(t *testing.T, addr string) []string {
	c := zkClient(t, 5*time.Second, addr)
	var out []string
	_, err := c.Create("/sasl", nil, 0, []zk.ACL{{Perms: zk.PermAll, Scheme: "sasl", ID: "bob"}})
	out = append(out, fmt.Sprintf("create /sasl with sasl:bob: %v", err))
	_, err = c.Create("/c", nil, 4, acl)
	out = append(out, fmt.Sprintf("create /c flags 4: %v", err))
	_, err = c.Create("/c/x", nil, 0, acl)
	out = append(out, fmt.Sprintf("create /c/x: %v", err))
	out = append(out, fmt.Sprintf("delete /c/x: %v", c.Delete("/c/x", -1)))
	time.Sleep(1500 * time.Millisecond) // sweeps every 100 ms
	ok, _, err := c.Exists("/c")
	out = append(out, fmt.Sprintf("exists /c after its last child went: %v %v", ok, err))
	return out
}

func TestReviewContainerFlagAndSASLACLAsZooKeeper(t *testing.T) {
	want := reviewScript(t, realzk.StartTWith(t, "-Dznode.container.checkIntervalMs=100", "-Dzookeeper.extendedTypesEnabled=true"))
	got := reviewScript(t, startA5(t, "znode.container.checkIntervalMs=100\nzookeeper.extendedTypesEnabled=true\n").Addr().String())
	if !slices.Equal(got, want) {
		for i := range max(len(got), len(want)) {
			var g, w string
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Errorf("step %d:\n ours:      %s\n ZooKeeper: %s", i, g, w)
			}
		}
	}
}
