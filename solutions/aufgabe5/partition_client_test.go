package aufgabe5

import (
	"errors"
	"fmt"
	"math/rand"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/go-zookeeper/zk"

	"zablab/internal/lincheck"
	"zablab/internal/wait"
)

// The partition tests' clients: real go-zookeeper sessions issuing the
// linearizability test's mix (create, delete, setData, sync+getData on
// lincheck.Keys, recorded in a lincheck.History for lincheck.Model), and
// between them creates of unique nodes under /pl, which are never deleted:
// every one acknowledged must exist on every peer at the end.

// partMaxOps bounds each client's loop whatever happens.
const partMaxOps = 5000

// partAcks is the unique nodes whose create was acknowledged.
type partAcks struct {
	mu   sync.Mutex
	acks []partAck
}

// partAck is one acknowledged create: the node, the client, and when the
// answer came (history time).
type partAck struct {
	name   string
	client int
	at     int64
}

func (a *partAcks) add(ack partAck) { a.mu.Lock(); a.acks = append(a.acks, ack); a.mu.Unlock() }

func (a *partAcks) list() []partAck {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]partAck(nil), a.acks...)
}

// partClient is one session of the workload.
type partClient struct {
	id       int
	conn     *zk.Conn
	h        *lincheck.History
	acks     *partAcks
	rng      *rand.Rand
	version  map[string]int32
	writes   int
	answered *atomic.Int32 // operations with a definite answer, all clients
}

// run issues operations until stop is closed or partMaxOps are done.
func (c *partClient) run(stop <-chan struct{}) {
	for n := 0; n < partMaxOps; n++ {
		select {
		case <-stop:
			return
		default:
		}
		key := lincheck.Keys[c.rng.Intn(len(lincheck.Keys))]
		switch r := c.rng.Intn(12); {
		case r < 2:
			c.write(lincheck.Input{Kind: lincheck.Create, Key: key, Version: -1})
		case r < 3:
			c.write(lincheck.Input{Kind: lincheck.Delete, Key: key, Version: c.someVersion(key)})
		case r < 6:
			c.write(lincheck.Input{Kind: lincheck.Set, Key: key, Version: c.someVersion(key)})
		case r < 9:
			c.get(key)
		default:
			c.unique()
		}
	}
}

// someVersion is -1 half the time, else the last version this client saw.
func (c *partClient) someVersion(key string) int32 {
	if c.rng.Intn(2) == 0 {
		return -1
	}
	return c.version[key]
}

// partResult maps a go-zookeeper error onto the model's results. Every
// error that does not say what happened (a lost connection, a closed
// client, an expired session) is an unknown outcome: the write may have
// taken effect or not.
func partResult(err error) lincheck.Result {
	switch {
	case err == nil:
		return lincheck.OK
	case errors.Is(err, zk.ErrNoNode):
		return lincheck.NoNode
	case errors.Is(err, zk.ErrNodeExists):
		return lincheck.Exists
	case errors.Is(err, zk.ErrBadVersion):
		return lincheck.BadVersion
	case errors.Is(err, zk.ErrSessionMoved):
		return lincheck.Moved
	}
	return lincheck.Unknown
}

// write issues a create, delete or setData with unique data and records it.
func (c *partClient) write(in lincheck.Input) {
	c.writes++
	in.Data = fmt.Sprintf("c%d-%d", c.id, c.writes)
	call := c.h.Now()
	var st *zk.Stat
	var err error
	switch in.Kind {
	case lincheck.Create:
		_, err = c.conn.Create(in.Key, []byte(in.Data), 0, zk.WorldACL(zk.PermAll))
	case lincheck.Delete:
		err = c.conn.Delete(in.Key, in.Version)
	case lincheck.Set:
		st, err = c.conn.Set(in.Key, []byte(in.Data), in.Version)
	}
	ret := c.h.Now()
	out := lincheck.Output{Result: partResult(err)}
	switch {
	case out.Result == lincheck.Unknown:
		ret = lincheck.Open
	case out.Result == lincheck.OK && in.Kind == lincheck.Set:
		out.Version = st.Version
		c.version[in.Key] = st.Version
	case out.Result == lincheck.OK && in.Kind == lincheck.Create:
		c.version[in.Key] = 0
	}
	if out.Result != lincheck.Unknown {
		c.answered.Add(1)
	}
	c.h.Add(porcupine.Operation{ClientId: c.id, Input: in, Call: call, Output: out, Return: ret})
}

// get is a sync and then a getData, recorded as one read from the sync's
// call to the getData's return; a read that failed had no effect and is
// not recorded.
func (c *partClient) get(key string) {
	call := c.h.Now()
	if _, err := c.conn.Sync(key); err != nil {
		return
	}
	data, st, err := c.conn.Get(key)
	ret := c.h.Now()
	res := partResult(err)
	if res != lincheck.OK && res != lincheck.NoNode {
		return
	}
	out := lincheck.Output{Result: res}
	if res == lincheck.OK {
		out.Data, out.Version = string(data), st.Version
		c.version[key] = st.Version
	}
	c.answered.Add(1)
	c.h.Add(porcupine.Operation{ClientId: c.id, Input: lincheck.Input{Kind: lincheck.Get, Key: key}, Call: call, Output: out, Return: ret})
}

// unique creates a node no other call names; an acknowledged create must
// survive everything.
func (c *partClient) unique() {
	c.writes++
	name := fmt.Sprintf("/pl/c%d-%d", c.id, c.writes)
	if _, err := c.conn.Create(name, nil, 0, zk.WorldACL(zk.PermAll)); err == nil {
		c.acks.add(partAck{name: name, client: c.id, at: c.h.Now()})
		c.answered.Add(1)
	}
}

// partLoad is the running clients.
type partLoad struct {
	clients  []*partClient
	answered atomic.Int32
	stop     chan struct{}
	wg       sync.WaitGroup
	once     sync.Once
}

// partStartLoad starts one client per list of addresses (its first is its
// home); t.Cleanup stops them if the test does not.
func partStartLoad(t *testing.T, e *partEnsemble, h *lincheck.History, acks *partAcks, seed int64, homes [][]string) *partLoad {
	l := &partLoad{stop: make(chan struct{})}
	for id, addrs := range homes {
		c := &partClient{id: id, conn: e.connect(t, addrs), h: h, acks: acks,
			rng: rand.New(rand.NewSource(seed + int64(id))), version: map[string]int32{}, answered: &l.answered}
		l.clients = append(l.clients, c)
	}
	for _, c := range l.clients {
		l.wg.Go(func() { c.run(l.stop) })
	}
	t.Cleanup(l.end)
	return l
}

// end stops the clients: closing a session fails a call that waits for a
// partitioned server (its outcome is then unknown), so none hangs.
func (l *partLoad) end() {
	l.once.Do(func() {
		close(l.stop)
		for _, c := range l.clients {
			c.conn.Close()
		}
		l.wg.Wait()
	})
}

// waitAnswers waits for n more answers than now, or fails the test.
func (l *partLoad) waitAnswers(t *testing.T, what string, n int32) {
	t.Helper()
	want := l.answered.Load() + n
	wait.For(t, fmt.Sprintf("%s (%d answers)", what, n), 60*time.Second, func() bool { return l.answered.Load() >= want })
}
