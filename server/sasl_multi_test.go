package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/realzk"
)

// saslMultiScript: a multi whose first op fails (NoNode) and whose second
// asks for a sasl ACL, on a server without SASL. ZooKeeper preps the ops in
// order and stops at the first failure: NoNode at op 0, RuntimeInconsistency
// after; the sasl ACL of op 1 is never looked at.
func saslMultiScript(t *testing.T, addr string) string {
	c := zkClient(t, 3*time.Second, addr)
	res, err := c.Multi(
		&zk.CreateRequest{Path: "/nope/x", Acl: zk.WorldACL(zk.PermAll)},
		&zk.CreateRequest{Path: "/y", Acl: []zk.ACL{{Perms: zk.PermAll, Scheme: "sasl", ID: "alice"}}},
		&zk.CreateRequest{Path: "/z", Acl: zk.WorldACL(zk.PermAll)},
	)
	var out []string
	for _, r := range res {
		out = append(out, fmt.Sprint(r.Error))
	}
	return fmt.Sprintf("err %v; ops %s", err, strings.Join(out, ", "))
}

func TestSASLACLMultiFailsAtFirstBadOp(t *testing.T) {
	want := saslMultiScript(t, realzk.StartT(t))
	got := saslMultiScript(t, startA5(t, "").Addr().String())
	if want != got {
		t.Errorf("ZooKeeper: %s\nours:      %s", want, got)
	}
}
