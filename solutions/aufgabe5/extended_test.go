package aufgabe5

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// alice is a digest identity, as the server adds it for addauth digest alice:secret.
var alice = mwzookeeper.ID{Scheme: "digest", ID: mwzookeeper.DigestOf("alice:secret")}

// TestRestartedReplicaKeepsACLsTTLsAndContainers: nodes with ACLs, a TTL
// node and a container come back the same on a replica restarted from a
// snapshot (its own and the leader's), and its ACL checks still hold.
func TestRestartedReplicaKeepsACLsTTLsAndContainers(t *testing.T) {
	const snapCount = 50
	e := start(t, 3, svctest.Options{SnapCount: snapCount, Extra: "zookeeper.extendedTypesEnabled=true"})
	f := follower(t, e)
	l := e.Leader()
	s := e.Session(t, l, time.Minute)
	mine := []mwzookeeper.ACL{{Perms: mwzookeeper.PermAll, ID: alice}, {Perms: mwzookeeper.PermRead, ID: mwzookeeper.ID{Scheme: "ip", ID: "10.0.0.0/8"}}}
	auth := []mwzookeeper.ID{{Scheme: "ip", ID: "127.0.0.1"}, alice}
	mustOK(t, "create /secret", e.Do(t, l, &req{Op: mwzookeeper.OpCreate, Session: s, Path: "/secret", Data: []byte("x"), ACL: mine}))
	mustOK(t, "create /ttl", e.Do(t, l, &req{Op: mwzookeeper.OpCreateTTL, Session: s, Path: "/ttl", Mode: mwzookeeper.PersistentTTL, TTL: 3600_000, ACL: mwzookeeper.OpenACL}))
	mustOK(t, "create /ctr", e.Do(t, l, &req{Op: mwzookeeper.OpCreateContainer, Session: s, Path: "/ctr", ACL: mwzookeeper.OpenACL}))
	mustOK(t, "setACL /ctr", e.Do(t, l, &req{Op: mwzookeeper.OpSetACL, Session: s, Path: "/ctr", Version: 0,
		ACL: []mwzookeeper.ACL{{Perms: mwzookeeper.PermRead | mwzookeeper.PermCreate, ID: mwzookeeper.Anyone}}}))
	if err := e.Stop(f); err != nil {
		t.Fatal(err)
	}
	pushPastSnapshots(t, e, l, snapCount, func(k int) *req {
		return &req{Op: mwzookeeper.OpCreate, Session: s, Path: "/ctr/n" + strconv.Itoa(k), Auth: auth}
	})
	if err := e.Restart(f); err != nil {
		t.Fatal(err)
	}
	e.WaitServing(t, f)
	waitSame(t, e)
	if n := e.Service(f).(*Service).restores.Load(); n == 0 {
		t.Fatalf("replica %d caught up without SetState", f)
	}
	for _, path := range []string{"/secret", "/ttl", "/ctr"} {
		want := mustOK(t, "getACL on the leader", e.Do(t, l, &req{Op: mwzookeeper.OpGetACL, Session: s, Path: path, Auth: auth}))
		got := mustOK(t, "getACL on the restarted replica", e.Do(t, f, &req{Op: mwzookeeper.OpGetACL, Session: s, Path: path, Auth: auth}))
		if d := cmp.Diff(want.ACL, got.ACL); d != "" || want.Stat != got.Stat {
			t.Errorf("%s after the restart: stat %+v, want %+v; ACL (-leader +restarted):\n%s", path, got.Stat, want.Stat, d)
		}
	}
	if r := e.Do(t, f, &req{Op: mwzookeeper.OpGetData, Session: s, Path: "/secret"}); !errors.Is(r.Err, mwzookeeper.ErrNoAuth) {
		t.Errorf("getData /secret without alice on the restarted replica: %v, want NoAuth", r.Err)
	}
	svc := e.Service(f).(*Service)
	svc.mu.Lock()
	o := svc.tree.get("/ttl").stat.EphemeralOwner
	svc.mu.Unlock()
	if o != mwzookeeper.TTLOwner(3600_000) {
		t.Errorf("/ttl's owner after the restart: %#x, want the TTL mark", uint64(o))
	}
}
