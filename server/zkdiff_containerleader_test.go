package server

// The container sweep after the leader is gone, against a 3-peer
// ZooKeeper 3.8 (a differential review's script; ours first).

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/ports"
	"zablab/internal/realzk"
	"zablab/internal/wait"

	"zablab/solutions/aufgabe5"
)

// containerLeaderScript makes three containers through a follower, gives
// two a child and deletes one child; then stops the leader, deletes the
// other child through the new order, and waits until the new leader has
// swept both emptied containers. The never-used one must stay.
func containerLeaderScript(t *testing.T, addrs []string, stop func(i int)) []string {
	s := &scripter{t: t}
	leader := slices.IndexFunc(addrs, func(a string) bool {
		return strings.Contains(realzk.FourLetter(a, "srvr"), "Mode: leader")
	})
	if leader < 0 {
		t.Fatalf("no server of %v says it leads", addrs)
	}
	c := zkClient(t, 4*time.Second, addrs[(leader+1)%len(addrs)])
	open := zk.WorldACL(zk.PermAll)
	for _, p := range []string{"/emptied", "/emptiedlater", "/neverused"} {
		_, err := c.CreateContainer(p, nil, 0, open)
		s.note("createContainer "+p, err)
	}
	for _, p := range []string{"/emptied/k", "/emptiedlater/k"} {
		_, err := c.Create(p, nil, 0, open)
		s.note("create "+p, err)
	}
	s.note("delete /emptied/k", c.Delete("/emptied/k", -1))
	stop(leader)
	var err error
	wait.For(t, "a delete through the next leader", 30*time.Second, func() bool {
		err = c.Delete("/emptiedlater/k", -1)
		return !errors.Is(err, zk.ErrConnectionClosed) && !errors.Is(err, zk.ErrNoServer)
	})
	s.note("delete /emptiedlater/k after the leader stopped", err)
	for _, p := range []string{"/emptied", "/emptiedlater"} {
		wait.For(t, p+" swept", 30*time.Second, func() bool {
			ok, _, err := c.Exists(p)
			return err == nil && !ok
		})
	}
	ok, _, err := c.Exists("/neverused")
	s.note("exists /neverused after the new leader's sweeps", err, ok)
	return s.out
}

// TestContainerSweepAfterLeaderLossAsZooKeeper: the new leader sweeps a
// container emptied before or after the old leader stopped, and keeps one
// that never had a child, as ZooKeeper's ContainerManager does.
func TestContainerSweepAfterLeaderLossAsZooKeeper(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two 3-server ensembles")
	}
	if _, err := realzk.ClassPath(); err != nil {
		t.Skip(err)
	}
	e := startEnsembleWith(t, 3, aufgabe5.New, "znode.container.checkIntervalMs=1000\n")
	got := containerLeaderScript(t, e.addrs, func(i int) { e.srv[i].Stop() })
	p, err := ports.Free(9)
	if err != nil {
		t.Fatal(err)
	}
	flags := append(slices.Clip(realzk.JVMFlags), "-Dznode.container.checkIntervalMs=1000")
	all, err := realzk.StartEnsembleWith(t.TempDir(), p, 3, realzk.Settings{JVMFlags: flags})
	if err != nil {
		t.Fatal(err)
	}
	addrs := make([]string, len(all))
	for i, s := range all {
		t.Cleanup(s.Stop)
		addrs[i] = s.Addr
	}
	want := containerLeaderScript(t, addrs, func(i int) { all[i].Stop() })
	againstZooKeeper(t, want, got, nil)
}
