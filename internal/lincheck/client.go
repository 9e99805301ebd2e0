package lincheck

import (
	"errors"
	"fmt"
	"math/rand"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"zablab/mwzookeeper"
)

// Keys are the znodes the mix works on; their parent is "/lin", which the
// test creates first.
var Keys = []string{"/lin/a", "/lin/b", "/lin/c"}

// Parent is the folder of Keys.
const Parent = "/lin"

// sessionTimeout outlasts the whole test: no session expires in it.
const sessionTimeout = 60_000 // ms

// Deadlines of a client: a replica that answers nothing, and a session no
// replica takes, end the client with an error instead of hanging.
const (
	answerTimeout = 10 * time.Second
	pickTimeout   = 10 * time.Second
)

// Cluster is the ensemble as the clients see it.
type Cluster interface {
	N() int
	// Serves says whether replica i takes requests now.
	Serves(i int) bool
	// DoAsync hands req to replica i; the channel yields the answer. It
	// must not block, whatever the replica does.
	DoAsync(i int, req *mwzookeeper.Request) <-chan *mwzookeeper.Response
}

// Client is one session issuing operations one at a time, on its home
// replica while that serves and on another serving replica otherwise. It
// behaves as a ZooKeeper client does: after a lost connection, and before
// it talks to another replica, it reconnects with its session id,
// password and the newest zxid it saw.
type Client struct {
	id       int
	cl       Cluster
	h        *History
	home     int
	replica  int // the replica the session is connected to; 0: none
	session  int64
	password []byte
	lastZxid int64
	rng      *rand.Rand
	version  map[string]int32 // the last version seen per key, for conditional writes
	writes   int
	answered *atomic.Int32 // operations with a definite answer, of every client
}

// NewClient opens a session on replica home; answered counts the
// client's finished operations (shared by the clients of one run).
func NewClient(t testing.TB, cl Cluster, h *History, id, home int, seed int64, answered *atomic.Int32) (*Client, error) {
	c := &Client{id: id, cl: cl, h: h, home: home, replica: home, rng: rand.New(rand.NewSource(seed + int64(id))),
		version: map[string]int32{}, answered: answered}
	req := &mwzookeeper.Request{Op: mwzookeeper.OpCreateSession, Timeout: sessionTimeout}
	r := c.do(t, req)
	if r.Err != nil || r.Session == 0 {
		return nil, fmt.Errorf("client %d: createSession on replica %d: %v (session %#x)", id, home, r.Err, r.Session)
	}
	c.session, c.password, c.lastZxid = r.Session, r.Password, r.Zxid
	return c, nil
}

// Run issues up to maxOps operations, until stop is closed. Only answers
// that say what happened count as answered: a Service that loses every
// answer must not look busy.
func (c *Client) Run(t testing.TB, stop <-chan struct{}, maxOps int) {
	for n := 0; n < maxOps; n++ {
		select {
		case <-stop:
			return
		default:
		}
		if !c.pick(t, stop) {
			return
		}
		key := Keys[c.rng.Intn(len(Keys))]
		var definite bool
		switch r := c.rng.Intn(10); {
		case r < 2:
			definite = c.write(t, Input{Kind: Create, Key: key, Version: -1})
		case r < 3:
			definite = c.write(t, Input{Kind: Delete, Key: key, Version: c.someVersion(key)})
		case r < 6:
			definite = c.write(t, Input{Kind: Set, Key: key, Version: c.someVersion(key)})
		default:
			definite = c.Read(t, key)
		}
		if definite {
			c.answered.Add(1)
		}
	}
}

// ReadEverywhere reads every key through every serving replica: a last
// synced read that makes the outcome of lost writes visible. A test that
// failed already is not kept waiting for it.
func (c *Client) ReadEverywhere(t testing.TB) {
	if t.Failed() {
		return
	}
	for i := 1; i <= c.cl.N(); i++ {
		c.home = i
		for _, key := range Keys {
			if c.pick(t, nil) {
				c.Read(t, key)
			}
		}
	}
}

// pick connects the session to the home replica if it serves, else to
// another that does, waiting (bounded, and until stop closes) while none
// takes it.
func (c *Client) pick(t testing.TB, stop <-chan struct{}) bool {
	deadline := time.After(pickTimeout)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		for k := range c.cl.N() {
			i := (c.home-1+k)%c.cl.N() + 1
			if !c.cl.Serves(i) {
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
		case <-stop: // nil: wait out the deadline
			return false
		case <-deadline:
			t.Errorf("client %d: no replica took session %#x for %s", c.id, c.session, pickTimeout)
			return false
		}
	}
}

// connect reconnects the session on replica i. ConnectionLoss means this
// replica cannot take it now (not serving, or behind the client).
func (c *Client) connect(t testing.TB, i int) error {
	req := &mwzookeeper.Request{Op: mwzookeeper.OpReconnect, Session: c.session, Password: c.password,
		LastZxid: c.lastZxid, Timeout: sessionTimeout}
	c.replica = i
	r := c.do(t, req)
	if r.Err != nil {
		c.replica = 0
	}
	return r.Err
}

// someVersion is -1 half the time, else the last version this client saw.
func (c *Client) someVersion(key string) int32 {
	if c.rng.Intn(2) == 0 {
		return -1
	}
	return c.version[key]
}

// do submits req to the client's replica and waits for the answer.
func (c *Client) do(t testing.TB, req *mwzookeeper.Request) *mwzookeeper.Response {
	return c.await(t, c.replica, req, c.cl.DoAsync(c.replica, req))
}

// await waits for the answer to req; a replica that never answers is an
// error, and the call's outcome is then unknown. A lost connection (or a
// session moved away) needs a reconnect before the next request.
func (c *Client) await(t testing.TB, replica int, req *mwzookeeper.Request, ch <-chan *mwzookeeper.Response) *mwzookeeper.Response {
	var r *mwzookeeper.Response
	select {
	case r = <-ch:
	case <-time.After(answerTimeout):
		t.Errorf("client %d: replica %d did not answer %s %q (session %#x) within %s", c.id, replica, req.Op, req.Path, c.session, answerTimeout)
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

// write issues a create, delete or setData with unique data and records
// it; false when its outcome is unknown.
func (c *Client) write(t testing.TB, in Input) bool {
	c.writes++
	in.Data = fmt.Sprintf("c%d-%d", c.id, c.writes)
	req := &mwzookeeper.Request{Session: c.session, Path: in.Key, Version: in.Version}
	switch in.Kind {
	case Create:
		req.Op, req.Data = mwzookeeper.OpCreate, []byte(in.Data)
	case Delete:
		req.Op = mwzookeeper.OpDelete
	case Set:
		req.Op, req.Data = mwzookeeper.OpSetData, []byte(in.Data)
	}
	replica := c.replica
	call := c.h.Now()
	r := c.do(t, req)
	ret := c.h.Now()
	res, ok := ResultOf(r.Err)
	if !ok {
		t.Errorf("client %d on replica %d: %s %s: unexpected error %v", c.id, replica, in.Kind, in.Key, r.Err)
	}
	out := Output{Result: res}
	switch {
	case res == Unknown:
		ret = Open
	case res == OK && in.Kind == Set:
		out.Version = r.Stat.Version
		c.version[in.Key] = r.Stat.Version
	case res == OK && in.Kind == Create:
		c.version[in.Key] = 0
	}
	c.h.Add(porcupine.Operation{ClientId: c.id, Input: in, Call: call, Output: out, Return: ret})
	return res != Unknown
}

// Read issues a sync and, without waiting for it, getData on the same
// replica (as a ZooKeeper client pipelines them: the session's order makes
// the read wait for the sync), recorded as one read from the sync's call
// to the getData's return. A read whose sync or getData lost the
// connection had no effect and is not recorded: a real client loses both
// with the connection. The sync names Parent, which exists: ZooKeeper
// does not look at a sync's path, and a Service that does is not wrong
// here. It says whether the read was recorded.
func (c *Client) Read(t testing.TB, key string) bool {
	syncReq := &mwzookeeper.Request{Op: mwzookeeper.OpSync, Session: c.session, Path: Parent}
	getReq := &mwzookeeper.Request{Op: mwzookeeper.OpGetData, Session: c.session, Path: key}
	replica := c.replica
	call := c.h.Now()
	syncCh := c.cl.DoAsync(replica, syncReq)
	getCh := c.cl.DoAsync(replica, getReq)
	rs := c.await(t, replica, syncReq, syncCh)
	r := c.await(t, replica, getReq, getCh)
	ret := c.h.Now()
	syncRes, ok := ResultOf(rs.Err)
	if !ok || (syncRes != OK && syncRes != Unknown && syncRes != Moved) {
		t.Errorf("client %d on replica %d: sync %s: unexpected answer %v", c.id, replica, Parent, rs.Err)
		return false
	}
	res, ok := ResultOf(r.Err)
	if !ok || res == Exists || res == BadVersion {
		t.Errorf("client %d on replica %d: getData %s: unexpected answer %v", c.id, replica, key, r.Err)
		return false
	}
	if syncRes != OK || res == Unknown || res == Moved {
		return false
	}
	out := Output{Result: res}
	if res == OK {
		out.Data, out.Version = string(r.Data), r.Stat.Version
		c.version[key] = r.Stat.Version
	}
	c.h.Add(porcupine.Operation{ClientId: c.id, Input: Input{Kind: Get, Key: key}, Call: call, Output: out, Return: ret})
	return true
}
