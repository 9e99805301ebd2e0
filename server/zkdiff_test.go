package server

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/realzk"
	"zablab/internal/wait"
)

// Differences from ZooKeeper 3.8 that a differential review proved, each
// as a script run against both servers.

// eventLog collects a go-zk client's watch events (session states left
// out) as "type path" lines.
type eventLog struct {
	mu  sync.Mutex
	evs []string
}

func (e *eventLog) add(ev zk.Event) {
	if ev.Type == zk.EventSession || ev.Type == zk.EventNotWatching {
		return // states, and go-zk's own word on watches still set at close
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.evs = append(e.evs, fmt.Sprintf("%s %s", ev.Type, ev.Path))
}

func (e *eventLog) take() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.evs
	e.evs = nil
	slices.Sort(out) // the two events of one change may come in either order
	return out
}

// closeScript: a session closes while it watches its own ephemeral and
// that node's parent. ZooKeeper applies the close (deleting the ephemeral
// and firing the watches of the still open connection) before it replies,
// so the closing client hears both events; another session's watch fires
// too.
func closeScript(t *testing.T, addr string) []string {
	s := &scripter{t: t}
	other := zkClient(t, 5*time.Second, addr)
	_, err := other.Create("/cl", nil, 0, acl)
	s.note("create /cl", err)
	var evs eventLog
	c, _, err := zk.Connect([]string{addr}, 5*time.Second, zk.WithLogger(nopLog{}), zk.WithLogInfo(false), zk.WithEventCallback(evs.add))
	if err != nil {
		t.Fatal(err)
	}
	wait.For(t, "a session", 10*time.Second, func() bool { return c.State() == zk.StateHasSession })
	_, err = c.Create("/cl/e", nil, zk.FlagEphemeral, acl)
	s.note("create /cl/e ephemeral", err)
	_, _, _, err = c.ExistsW("/cl/e")
	s.note("own existsW /cl/e", err)
	_, _, _, err = c.ChildrenW("/cl")
	s.note("own childrenW /cl", err)
	_, _, och, err := other.GetW("/cl/e")
	s.note("other's getW /cl/e", err)
	c.Close() // returns once the close's reply came, after the events before it
	s.note("closing client's own events", nil, strings.Join(evs.take(), ", "))
	select {
	case ev := <-och:
		s.note("other's event", nil, ev.Type, " ", ev.Path)
	case <-time.After(5 * time.Second):
		s.note("other's event", nil, "none in 5 s")
	}
	return s.out
}

func TestCloseEventsAsZooKeeper(t *testing.T) {
	got := closeScript(t, startA5(t, "").Addr().String()) // first: without the reference (the handout) it skips before a JVM starts
	want := closeScript(t, realzk.StartTWith(t))
	againstZooKeeper(t, want, got, nil)
}

// ttlOffScript: createTTL ops in multis while TTL nodes are off (as the
// Java client's Op.create sends a TTL mode). ZooKeeper fails such a multi
// like any other, with header err 0 and an error result per op: the op
// that failed first has its own code, the ops before it RuntimeInconsistency
// (-2), those after it too.
func ttlOffScript(t *testing.T, addr string) []string {
	s := &scripter{t: t}
	r := dialAddr(t, addr)
	r.connect(0, make([]byte, 16), 10000)
	_, err := zkClient(t, 5*time.Second, addr).Create("/to", nil, 0, acl)
	s.note("create /to", err)
	ttl := multiCreateOp(21, "/to/t", 5)
	s.note("multi [createTTL]", nil, rawMulti(r, 1, ttl))
	s.note("multi [create /to (exists); createTTL]", nil, rawMulti(r, 2, multiCreateOp(1, "/to", 0), ttl))
	s.note("multi [create /to/x; createTTL; delete /to/none]", nil,
		rawMulti(r, 3, multiCreateOp(1, "/to/x", 0), ttl, multiDeleteOp("/to/none")))
	return s.out
}

func TestTTLOffInMultiAsZooKeeper(t *testing.T) {
	got := ttlOffScript(t, startA5(t, "").Addr().String()) // first: without the reference (the handout) it skips before a JVM starts
	want := ttlOffScript(t, realzk.StartTWith(t, "-Dzookeeper.extendedTypesEnabled=false"))
	againstZooKeeper(t, want, got, nil)
}

// reconfigScript: ZooKeeper 3.8 with reconfiguration off (its default)
// answers reconfig ReconfigDisabled, which go-zk knows as
// ErrReconfigDisabled.
func reconfigScript(t *testing.T, addr string) []string {
	s := &scripter{t: t}
	c := zkClient(t, 5*time.Second, addr)
	_, err := c.Reconfig([]string{"server.1=127.0.0.1:2888:3888:participant;2181"}, -1)
	s.note("reconfig", err)
	_, err = c.IncrementalReconfig(nil, []string{"2"}, -1)
	s.note("incremental reconfig", err)
	return s.out
}

func TestReconfigDisabledAsZooKeeper(t *testing.T) {
	got := reconfigScript(t, startA5(t, "").Addr().String()) // first: without the reference (the handout) it skips before a JVM starts
	want := reconfigScript(t, realzk.StartTWith(t))
	againstZooKeeper(t, want, got, nil)
}
