package server

import (
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// TestStubNeverSeesAContainerAsAPlainCreate: the design says the
// server answers containers and TTL nodes Unimplemented itself for a
// Service whose BeyondTheSheet is false, "so a student's Service never
// sees them (a container must never become a plain node because a stub
// ignores its mode)". A create (opcode 1) or a multi's create with the
// container flag (4) is such a request: go-zookeeper's Create and Multi
// send exactly that.
func TestStubNeverSeesAContainerAsAPlainCreate(t *testing.T) {
	f := newFake() // not an mwzookeeper.Beyond: a student's stub
	s := startServer(t, f, testProps)
	c := zkClient(t, 5*time.Second, s.Addr().String())
	const flagContainer = 4
	if _, err := c.Create("/c", nil, flagContainer, acl); err == nil || !strings.Contains(err.Error(), "-6") {
		t.Errorf("create /c with the container flag: %v, want Unimplemented (-6)", err)
	}
	if _, err := c.Multi(&zk.CreateRequest{Path: "/m", Acl: acl, Flags: flagContainer}); err == nil || !strings.Contains(err.Error(), "-6") {
		t.Errorf("multi create /m with the container flag: %v, want Unimplemented (-6)", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range []string{"/c", "/m"} {
		if _, ok := f.nodes[p]; ok {
			t.Errorf("the stub made %s a plain node from a container request", p)
		}
	}
}
