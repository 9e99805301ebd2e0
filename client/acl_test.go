package client_test

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"zablab/client"
	"zablab/internal/realzk"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

// onRealZK connects to Debian's ZooKeeper 3.8 through a proxy that can
// cut the connection: ACLs, TTL nodes and the calls beyond go-zk are
// checked against the real thing (our server does not check ACLs yet).
func onRealZK(t *testing.T) (*client.MWZooKeeper, *proxy, func() []client.State) {
	t.Helper()
	p := newProxy(t, realzk.StartT(t))
	var mu sync.Mutex
	var states []client.State
	z, err := client.Connect([]string{p.addr()}, 4*time.Second, client.WithConnectTimeout(20*time.Second),
		client.WithStateCallback(func(s client.State) { mu.Lock(); states = append(states, s); mu.Unlock() }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { z.Close() })
	return z, p, func() []client.State { mu.Lock(); defer mu.Unlock(); return slices.Clone(states) }
}

// TestACLsAndAuthOnZooKeeper: a digest ACL keeps out a session until it
// authenticates, and the identity survives a reconnect (go-zk sends it
// again on the new connection); auth:: ACLs need an identity; SetACL
// compares the ACL version; read-only refuses writes.
func TestACLsAndAuthOnZooKeeper(t *testing.T) {
	z, p, states := onRealZK(t)
	if _, err := z.CreateACL("/secret", []byte("s"), mwzookeeper.Persistent,
		client.DigestACL(mwzookeeper.PermAll, "ada", "pw")); err != nil {
		t.Fatal(err)
	}
	_, err := z.GetData("/secret", nil)
	wantErr(t, "read before addauth", err, mwzookeeper.ErrNoAuth, "/secret")
	_, err = z.CreateACL("/mine", nil, mwzookeeper.Persistent, client.CreatorAllACL())
	wantErr(t, "auth ACL without identity", err, mwzookeeper.ErrInvalidACL, "/mine")
	if err := z.AddAuth("digest", []byte("ada:pw")); err != nil {
		t.Fatal(err)
	}
	if _, err := z.GetData("/secret", nil); err != nil {
		t.Fatalf("read after addauth: %v", err)
	}
	p.cut(false) // a new connection, the same session
	wait.For(t, "a reconnect", 10*time.Second, func() bool {
		return slices.Contains(states(), client.StateDisconnected) && z.State() == client.StateConnected
	})
	if _, err := z.GetData("/secret", nil); err != nil {
		t.Fatalf("read after the reconnect: %v (states %v)", err, states())
	}
	if _, err := z.CreateACL("/mine", nil, mwzookeeper.Persistent, client.CreatorAllACL()); err != nil {
		t.Fatal(err)
	}
	acl, st, err := z.GetACL("/mine")
	if want := client.DigestACL(mwzookeeper.PermAll, "ada", "pw"); err != nil || !slices.Equal(acl, want) || st.Aversion != 0 {
		t.Fatalf("getACL /mine: %v %v %v, want %v, aversion 0", acl, st.Aversion, err, want)
	}
	_, err = z.SetACL("/mine", client.ReadOnlyACL(), 3)
	wantErr(t, "setACL, wrong aversion", err, mwzookeeper.ErrBadVersion, "/mine")
	if st, err = z.SetACL("/mine", client.ReadOnlyACL(), 0); err != nil || st.Aversion != 1 {
		t.Fatalf("setACL: %v, aversion %d", err, st.Aversion)
	}
	_, err = z.SetData("/mine", nil, -1)
	wantErr(t, "write on read-only", err, mwzookeeper.ErrNoAuth, "/mine")
}

// TestTTLAndContainerOnZooKeeper: ZooKeeper 3.8 makes both, and shows
// clients an EphemeralOwner of 0 for them (DataNode.copyStat hides the
// TTL and container marks that mwzookeeper's modes.go describes); a TTL
// out of range is refused before anything is sent.
func TestTTLAndContainerOnZooKeeper(t *testing.T) {
	z, _, _ := onRealZK(t)
	name, err := z.CreateTTL("/ttl-", nil, mwzookeeper.PersistentSeqTTL, client.OpenACL(), 5*time.Second)
	if err != nil || name != "/ttl-0000000000" {
		t.Fatalf("createTTL: %q %v", name, err)
	}
	if _, st, err := z.Exists(name); err != nil || st.EphemeralOwner != 0 {
		t.Fatalf("%s: owner %#x, %v", name, st.EphemeralOwner, err)
	}
	_, err = z.CreateTTL("/ttl0", nil, mwzookeeper.PersistentTTL, client.OpenACL(), 0)
	wantErr(t, "ttl 0", err, mwzookeeper.ErrBadArguments, "/ttl0")
	_, err = z.CreateTTL("/ttl1", nil, mwzookeeper.Persistent, client.OpenACL(), time.Second)
	wantErr(t, "not a TTL mode", err, mwzookeeper.ErrBadArguments, "/ttl1")
	if _, err := z.CreateContainer("/box", nil, client.OpenACL()); err != nil {
		t.Fatal(err)
	}
	if _, err := z.Create("/box/x", nil, false); err != nil {
		t.Fatal(err)
	}
}

// TestBeyondCallsOnZooKeeper: the calls sent through go-zk's unexported
// request (beyond.go) encode and decode as ZooKeeper 3.8 expects.
func TestBeyondCallsOnZooKeeper(t *testing.T) {
	z, _, _ := onRealZK(t)
	if _, err := z.Create("/b", nil, false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/b/e1", "/b/e2"} {
		if _, err := z.Create(p, nil, true); err != nil {
			t.Fatal(err)
		}
	}
	if eph, err := z.GetEphemerals("/b/e"); err != nil || !slices.Equal(eph, []string{"/b/e1", "/b/e2"}) {
		t.Fatalf("getEphemerals: %v %v", eph, err)
	}
	if n, err := z.GetAllChildrenNumber("/b"); err != nil || n != 2 {
		t.Fatalf("getAllChildrenNumber: %d %v", n, err)
	}
	if err := z.AddAuth("digest", []byte("bob:x")); err != nil {
		t.Fatal(err)
	}
	who, err := z.WhoAmI()
	if err != nil || !slices.Contains(who, mwzookeeper.ClientInfo{Scheme: "digest", User: "bob"}) {
		t.Fatalf("whoAmI: %v %v", who, err)
	}
	events := make(chan client.Event, 10)
	if err := z.AddWatch("/b", mwzookeeper.WatchPersistentRecursive, func(ev client.Event) { events <- ev }); err != nil {
		t.Fatal(err)
	}
	z.SetData("/b/e1", []byte("x"), -1)
	z.SetData("/b/e2", []byte("x"), -1)
	for _, want := range []string{"/b/e1", "/b/e2"} {
		if ev := next(t, "recursive watch", events, 5*time.Second); ev.Path != want || ev.Type != mwzookeeper.EventNodeDataChanged {
			t.Fatalf("event %v, want data changed on %s", ev, want)
		}
	}
	if err := z.RemoveWatches("/b", mwzookeeper.WatcherAny); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, "removal", events, time.Second); ev.Type != client.EventPersistentWatchRemoved {
		t.Fatalf("after removeWatches: %v", ev)
	}
	err = z.RemoveWatches("/b", mwzookeeper.WatcherAny)
	if !errors.Is(err, mwzookeeper.ErrorOf(-121)) {
		t.Fatalf("removeWatches with no watch: %v", err)
	}
}
