package server

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/realzk"
	mw "zablab/mwzookeeper"
	"zablab/solutions/aufgabe5"
)

// superDigest is kazoo's test super user, super:test, as ZooKeeper's
// superDigest property names it.
const superDigest = "super:D/InIHSb7yEEbrWz8b9l71RjZJU="

// parityKeys configure our ensemble as parityFlags configure ZooKeeper:
// TTL nodes on, a sweep every 100 ms, the super user.
const parityKeys = "zookeeper.extendedTypesEnabled=true\nznode.container.checkIntervalMs=100\n" +
	"zookeeper.DigestAuthenticationProvider.superDigest=" + superDigest + "\n"

var parityFlags = []string{"-Dzookeeper.extendedTypesEnabled=true", "-Dznode.container.checkIntervalMs=100",
	"-Dzookeeper.DigestAuthenticationProvider.superDigest=" + superDigest}

// TestACLsTTLAndContainersAsZooKeeper runs one script of ACL, auth, TTL
// and container operations through go-zookeeper against Apache ZooKeeper
// 3.8 (a 3-peer ensemble: only a leader sweeps containers and TTL nodes)
// and against a 3-peer ensemble of ours, and compares every result,
// error and event line by line.
func TestACLsTTLAndContainersAsZooKeeper(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two 3-peer ensembles")
	}
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	want := parityScript(t, realzk.StartEnsembleT(t, 3, parityFlags...))
	ours := startEnsembleWith(t, 3, aufgabe5.New, parityKeys)
	got := parityScript(t, ours.addrs)
	t.Logf("%d steps compared", len(want))
	sameLines(t, want, got)
}

// parityScript is the script. Its clients: anon (no auth), alice (digest
// alice:secret), su (the super user); all on the first address, and an
// observer on the last for events.
func parityScript(t *testing.T, addrs []string) []string {
	s := &scripter{t: t}
	anon := zkClient(t, 5*time.Second, addrs[0])
	alice := zkClient(t, 5*time.Second, addrs[0])
	su := zkClient(t, 5*time.Second, addrs[0])
	if err := alice.AddAuth("digest", []byte("alice:secret")); err != nil {
		t.Fatal(err)
	}
	if err := su.AddAuth("digest", []byte("super:test")); err != nil {
		t.Fatal(err)
	}
	aclSteps(s, anon, alice)
	setACLSteps(s, anon, alice, su)
	ipSteps(s, anon)
	extendedSteps(s, anon, alice)
	return s.out
}

func aclSteps(s *scripter, anon, alice *zk.Conn) {
	mine := zk.DigestACL(zk.PermAll, "alice", "secret")
	_, err := anon.Create("/p", []byte("d"), 0, mine)
	s.note("create /p for alice", err)
	_, _, err = anon.Get("/p")
	s.note("anon get /p", err)
	data, st, err := alice.Get("/p")
	s.note("alice get /p", err, string(data), " aversion ", st != nil && st.Aversion == 0)
	_, _, err = anon.GetACL("/p")
	s.note("anon getACL /p", err)
	acl, st, err := alice.GetACL("/p")
	s.note("alice getACL /p", err, aclText(acl), st != nil)
	_, _, err = anon.Exists("/p")
	s.note("anon exists /p", err)
	_, _, err = anon.Children("/p")
	s.note("anon children /p", err)
	_, err = anon.Create("/p/c", nil, 0, zk.WorldACL(zk.PermAll))
	s.note("anon create /p/c", err)
	_, err = alice.Create("/p/c", nil, 0, zk.AuthACL(zk.PermRead|zk.PermAdmin))
	s.note("alice create /p/c with auth", err)
	acl, _, err = alice.GetACL("/p/c")
	s.note("getACL /p/c", err, aclText(acl))
	_, err = anon.Create("/a", nil, 0, zk.AuthACL(zk.PermAll))
	s.note("anon create with auth", err)
	_, err = anon.Create("/w", nil, 0, []zk.ACL{{Perms: zk.PermAll, Scheme: "world", ID: "nobody"}})
	s.note("create world:nobody", err)
	_, err = anon.Create("/d", nil, 0, []zk.ACL{{Perms: zk.PermAll, Scheme: "digest", ID: "nohash"}})
	s.note("create digest without hash", err)
	_, err = anon.Create("/x", nil, 0, []zk.ACL{{Perms: zk.PermAll, Scheme: "x509", ID: "cn"}})
	s.note("create unknown scheme", err)
	_, err = anon.Create("/sasl", nil, 0, []zk.ACL{{Perms: zk.PermAll, Scheme: "sasl", ID: "bob"}})
	s.note("create sasl:bob without SASL", err)
	_, err = anon.Multi(&zk.CreateRequest{Path: "/m1", Acl: zk.WorldACL(zk.PermAll)}, &zk.CreateRequest{Path: "/m2",
		Acl: []zk.ACL{{Perms: zk.PermAll, Scheme: "sasl", ID: "bob"}}})
	s.note("multi with sasl:bob without SASL", err)
}

func setACLSteps(s *scripter, anon, alice, su *zk.Conn) {
	mine := zk.DigestACL(zk.PermAll, "alice", "secret")
	_, err := alice.SetACL("/p", zk.WorldACL(zk.PermRead), 7)
	s.note("setACL bad version", err)
	both := append(zk.WorldACL(zk.PermRead), mine...)
	st, err := alice.SetACL("/p", both, 0)
	s.note("setACL", err, st != nil && st.Aversion == 1 && st.Version == 0)
	acl, _, err := anon.GetACL("/p")
	s.note("anon getACL, read only", err, aclText(acl))
	_, err = anon.Set("/p", nil, -1)
	s.note("anon set /p", err)
	_, err = anon.SetACL("/p", zk.WorldACL(zk.PermAll), -1)
	s.note("anon setACL /p", err)
	_, err = alice.SetACL("/p", nil, -1)
	s.note("setACL empty", err)
	err = anon.Delete("/p/c", -1)
	s.note("anon delete /p/c", err)
	err = su.Delete("/p/c", -1)
	s.note("super delete /p/c", err)
	_, err = anon.Multi(&zk.CreateRequest{Path: "/m", Acl: zk.WorldACL(zk.PermAll)},
		&zk.CreateRequest{Path: "/p/m", Acl: zk.WorldACL(zk.PermAll)})
	s.note("anon multi under /p", err)
	_, err = anon.Multi(&zk.CheckVersionRequest{Path: "/p", Version: 0})
	s.note("anon multi check /p", err)
	nodel := []zk.ACL{{Perms: zk.PermAll &^ zk.PermDelete, Scheme: "world", ID: "anyone"}}
	_, err = anon.Create("/nd", nil, 0, nodel)
	s.note("create /nd without delete", err)
	_, err = anon.Create("/nd/c", nil, 0, zk.WorldACL(zk.PermAll))
	s.note("create /nd/c", err)
	err = anon.Delete("/nd/c", 5)
	s.note("delete /nd/c bad version", err)
	err = anon.Delete("/nd", -1)
	s.note("delete /nd", err)
}

func ipSteps(s *scripter, anon *zk.Conn) {
	for _, c := range []struct{ path, id string }{{"/ip", "127.0.0.1"}, {"/cidr", "127.0.0.0/8"},
		{"/ten", "10.0.0.0/8"}, {"/bad", "127.0.0.1/33"}, {"/v6", "::1"}} {
		_, err := anon.Create(c.path, []byte("v"), 0, []zk.ACL{{Perms: zk.PermRead | zk.PermAdmin, Scheme: "ip", ID: c.id}})
		s.note("create "+c.path+" ip "+c.id, err)
		_, _, err = anon.Get(c.path)
		s.note("get "+c.path, err)
		_, err = anon.Set(c.path, nil, -1)
		s.note("set "+c.path, err)
	}
}

func extendedSteps(s *scripter, anon, alice *zk.Conn) {
	open := zk.WorldACL(zk.PermAll)
	_, err := anon.CreateTTL("/ttl", []byte("t"), zk.FlagTTL, open, 300*time.Millisecond)
	s.note("create /ttl", err)
	_, st, err := anon.Get("/ttl")
	s.note("get /ttl", err, fmt.Sprintf("owner %#x", uint64(st.EphemeralOwner)))
	_, err = anon.CreateTTL("/ttl-s", nil, zk.FlagTTL|zk.FlagSequence, open, time.Hour)
	s.note("create sequential ttl", err)
	_, err = anon.Create("/ttl0", nil, zk.FlagTTL, open)
	s.note("create ttl mode without ttl", err)
	_, err = anon.CreateContainer("/ctr", nil, zk.FlagContainer, open)
	s.note("create /ctr", err)
	_, st, err = anon.Get("/ctr")
	s.note("get /ctr", err, fmt.Sprintf("owner %#x", uint64(st.EphemeralOwner)))
	_, err = anon.CreateContainer("/ctr-never", nil, zk.FlagContainer, open)
	s.note("create /ctr-never", err)
	_, err = anon.Create("/flag4", nil, zk.FlagContainer, open) // opcode create with the container flag
	s.note("create /flag4", err)
	_, err = anon.Create("/flag4/kid", nil, 0, open)
	s.note("create /flag4/kid", err)
	s.note("delete /flag4/kid", anon.Delete("/flag4/kid", -1))
	_, err = anon.Create("/ctr/kid", nil, zk.FlagEphemeral, open)
	s.note("create /ctr/kid", err)
	_, err = anon.Create("/ttl/kid", nil, 0, open)
	s.note("create /ttl/kid", err)
	err = anon.Delete("/ttl/kid", -1)
	s.note("delete /ttl/kid", err)
	_, _, ch, err := anon.ExistsW("/ctr")
	s.note("watch /ctr", err)
	err = anon.Delete("/ctr/kid", -1)
	s.note("delete /ctr/kid", err)
	s.note("/ctr swept", awaitGone(anon, "/ctr"))
	select {
	case ev := <-ch:
		s.note("event", nil, ev.Type, " ", ev.Path)
	case <-time.After(5 * time.Second):
		s.note("event", errors.New("none in 5 s"))
	}
	s.note("/ttl swept", awaitGone(anon, "/ttl"))
	ok, _, err := anon.Exists("/ctr-never")
	s.note("/ctr-never kept", err, ok)
	ok, _, err = anon.Exists("/flag4")
	s.note("/flag4 kept", err, ok)
}

// awaitGone waits up to 10 s for the sweep to remove path, on a watch.
func awaitGone(c *zk.Conn, path string) error {
	deadline := time.After(10 * time.Second)
	for {
		ok, _, ch, err := c.ExistsW(path)
		if err != nil || !ok {
			return err
		}
		select {
		case <-ch:
		case <-deadline:
			return fmt.Errorf("%s still there after 10 s", path)
		}
	}
}

// TestSuperUserWhoAmIAsZooKeeper: whoAmI after the super user's addauth
// lists what ZooKeeper 3.8 lists.
func TestSuperUserWhoAmIAsZooKeeper(t *testing.T) {
	script := func(addr string) []string {
		r := dialAddr(t, addr)
		r.connect(0, make([]byte, 16), 4000)
		body := jstr(be32(be32(be32(nil, -4), int32(mw.OpAuth)), 0), "digest")
		r.frame(jstr(body, "super:test"))
		_, code := r.reply()
		return []string{fmt.Sprintf("addauth digest super:test: code %d", code), "whoAmI: " + whoAmIRaw(r)}
	}
	want := script(realzk.StartTWith(t, "-Dzookeeper.DigestAuthenticationProvider.superDigest="+superDigest))
	got := script(startA5(t, "zookeeper.DigestAuthenticationProvider.superDigest="+superDigest+"\n").Addr().String())
	sameLines(t, want, got)
}
