package aufgabe5

import (
	"errors"
	"fmt"
	"math/rand"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// linSessionTimeout outlasts the whole test: no session expires in it.
const linSessionTimeout = 60_000 // ms

// linClient is one session of the linearizability test issuing operations
// one at a time, on its home replica while that serves and on another
// serving replica otherwise. It behaves as a ZooKeeper client does: after
// a lost connection, and before it talks to another replica, it
// reconnects with its session id, password and the newest zxid it saw.
type linClient struct {
	id       int
	e        *svctest.Ensemble
	h        *linHistory
	home     int
	replica  int // the replica the session is connected to; 0: none
	session  int64
	password []byte
	lastZxid int64
	rng      *rand.Rand
	version  map[string]int32 // the last version seen per key, for conditional writes
	writes   int
	answered *atomic.Int32
}

// newLinClient opens a session on replica home.
func newLinClient(t *testing.T, e *svctest.Ensemble, h *linHistory, id, home int, seed int64) *linClient {
	r := mustOK(t, fmt.Sprintf("client %d: createSession on replica %d", id, home),
		e.Do(t, home, &mwzookeeper.Request{Op: mwzookeeper.OpCreateSession, Timeout: linSessionTimeout}))
	return &linClient{id: id, e: e, h: h, home: home, replica: home, session: r.Session,
		password: r.Password, lastZxid: r.Zxid, rng: rand.New(rand.NewSource(seed + int64(id))),
		version: map[string]int32{}, answered: new(atomic.Int32)}
}

func (c *linClient) run(t *testing.T, stop <-chan struct{}) {
	for n := 0; n < linMaxOps; n++ {
		select {
		case <-stop:
			return
		default:
		}
		if !c.pick(t) {
			return
		}
		key := linKeys[c.rng.Intn(len(linKeys))]
		switch r := c.rng.Intn(10); {
		case r < 2:
			c.write(t, linInput{kind: linCreate, key: key, version: -1})
		case r < 3:
			c.write(t, linInput{kind: linDelete, key: key, version: c.someVersion(key)})
		case r < 6:
			c.write(t, linInput{kind: linSet, key: key, version: c.someVersion(key)})
		default:
			c.get(t, key)
		}
		c.answered.Add(1)
	}
}

// pick connects the session to the home replica if it serves, else to
// another that does, waiting (bounded) while none takes it.
func (c *linClient) pick(t *testing.T) bool {
	deadline := time.After(30 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		for k := range c.e.N() {
			i := (c.home-1+k)%c.e.N() + 1
			if !linServes(c.e, i) {
				continue
			}
			if i == c.replica {
				return true
			}
			err := c.connect(t, i)
			if err == nil {
				return true
			}
			if !errors.Is(err, mwzookeeper.ErrConnectionLoss) {
				t.Errorf("client %d: reconnect session %#x on replica %d: %v", c.id, c.session, i, err)
				return false
			}
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Errorf("client %d: no replica took session %#x for 30 s", c.id, c.session)
			return false
		}
	}
}

// connect reconnects the session on replica i. ConnectionLoss means this
// replica cannot take it now (not serving, or behind the client).
func (c *linClient) connect(t *testing.T, i int) error {
	req := &mwzookeeper.Request{Op: mwzookeeper.OpReconnect, Session: c.session, Password: c.password,
		LastZxid: c.lastZxid, Timeout: linSessionTimeout}
	c.replica = i
	r := c.do(t, req)
	if r.Err != nil {
		c.replica = 0
	}
	return r.Err
}

// linServes says whether replica i takes requests. It asks the Service
// too: it answers ConnectionLoss as soon as it stops serving, a moment
// before it tells its Host, and a client that trusted the Host alone
// would spin through that moment with requests that all fail.
func linServes(e *svctest.Ensemble, i int) bool {
	svc := e.Service(i)
	if svc == nil || !e.Host(i).IsServing() {
		return false
	}
	r, ok := svc.(mwzookeeper.Reporter)
	return !ok || r.Stats().Role != "looking"
}

// someVersion is -1 half the time, else the last version this client saw.
func (c *linClient) someVersion(key string) int32 {
	if c.rng.Intn(2) == 0 {
		return -1
	}
	return c.version[key]
}

// do submits req to the client's replica and waits for the answer.
func (c *linClient) do(t *testing.T, req *mwzookeeper.Request) *mwzookeeper.Response {
	return c.await(t, req, c.e.DoAsync(c.replica, req))
}

// await waits for the answer to req; a replica that never answers is an
// error, and the call's outcome is then unknown. A lost connection (or a
// session moved away) needs a reconnect before the next request.
func (c *linClient) await(t *testing.T, req *mwzookeeper.Request, ch <-chan *mwzookeeper.Response) *mwzookeeper.Response {
	var r *mwzookeeper.Response
	select {
	case r = <-ch:
	case <-time.After(30 * time.Second):
		t.Errorf("client %d: replica %d never answered %s %q", c.id, c.replica, req.Op, req.Path)
		r = &mwzookeeper.Response{Err: mwzookeeper.ErrConnectionLoss}
	}
	switch {
	case errors.Is(r.Err, mwzookeeper.ErrConnectionLoss), errors.Is(r.Err, mwzookeeper.ErrSessionMoved):
		c.replica = 0
	default:
		c.lastZxid = max(c.lastZxid, r.Zxid)
	}
	return r
}

// write issues a create, delete or setData with unique data and records it.
func (c *linClient) write(t *testing.T, in linInput) {
	c.writes++
	in.data = fmt.Sprintf("c%d-%d", c.id, c.writes)
	req := &mwzookeeper.Request{Session: c.session, Path: in.key, Version: in.version}
	switch in.kind {
	case linCreate:
		req.Op, req.Data = mwzookeeper.OpCreate, []byte(in.data)
	case linDelete:
		req.Op = mwzookeeper.OpDelete
	case linSet:
		req.Op, req.Data = mwzookeeper.OpSetData, []byte(in.data)
	}
	call := c.h.now()
	r := c.do(t, req)
	ret := c.h.now()
	res, ok := linResultOf(r.Err)
	if !ok {
		t.Errorf("client %d on replica %d: %s %s: unexpected error %v", c.id, c.replica, in.kind, in.key, r.Err)
	}
	out := linOutput{result: res}
	switch {
	case res == linUnknown:
		ret = linOpen
	case res == linOK && in.kind == linSet:
		out.version = r.Stat.Version
		c.version[in.key] = r.Stat.Version
	case res == linOK && in.kind == linCreate:
		c.version[in.key] = 0
	}
	c.h.add(porcupine.Operation{ClientId: c.id, Input: in, Call: call, Output: out, Return: ret})
}

// get issues a sync and, without waiting for it, getData on the same
// replica (as a ZooKeeper client pipelines them: the session's order makes
// the read wait for the sync), recorded as one read from the sync's call
// to the getData's return. A read whose sync or getData lost the
// connection had no effect and is not recorded: a real client loses both
// with the connection.
func (c *linClient) get(t *testing.T, key string) {
	syncReq := &mwzookeeper.Request{Op: mwzookeeper.OpSync, Session: c.session, Path: key}
	getReq := &mwzookeeper.Request{Op: mwzookeeper.OpGetData, Session: c.session, Path: key}
	replica := c.replica
	call := c.h.now()
	syncCh := c.e.DoAsync(replica, syncReq)
	getCh := c.e.DoAsync(replica, getReq)
	rs := c.await(t, syncReq, syncCh)
	r := c.await(t, getReq, getCh)
	ret := c.h.now()
	syncRes, ok := linResultOf(rs.Err)
	if !ok || (syncRes != linOK && syncRes != linUnknown && syncRes != linMoved) {
		t.Errorf("client %d on replica %d: sync %s: unexpected answer %v", c.id, replica, key, rs.Err)
		return
	}
	res, ok := linResultOf(r.Err)
	if !ok || res == linExists || res == linBadVersion {
		t.Errorf("client %d on replica %d: getData %s: unexpected answer %v", c.id, replica, key, r.Err)
		return
	}
	if syncRes != linOK || res == linUnknown || res == linMoved {
		return
	}
	out := linOutput{result: res}
	if res == linOK {
		out.data, out.version = string(r.Data), r.Stat.Version
		c.version[key] = r.Stat.Version
	}
	c.h.add(porcupine.Operation{ClientId: c.id, Input: linInput{kind: linGet, key: key}, Call: call, Output: out, Return: ret})
}
