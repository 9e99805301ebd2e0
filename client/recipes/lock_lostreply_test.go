package recipes_test

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"zablab/client"
	"zablab/client/internal/zktest"
	"zablab/client/recipes"
	"zablab/internal/wait"
)

// replyDropProxy forwards ZooKeeper connections. When armed, it forwards the
// next create request (opcode 1 or 15) to the server, waits for the server
// to apply it, and then drops the connection without passing the reply on:
// the "create whose reply was lost" of ZooKeeper's protected-create problem.
type replyDropProxy struct {
	ln     net.Listener
	target string
	armed  atomic.Bool
	fired  atomic.Int32
	// blockAfter: once the reply is dropped, refuse new connections
	// (until cut(false)), as if the server stayed out of reach a while.
	blockAfter atomic.Bool
	// op, if set, is the opcode whose reply is dropped instead of a create's.
	op atomic.Int32
	// watches counts the requests that leave a watch: exists, getData,
	// getChildren and getChildren2 with their watch flag set.
	watches atomic.Int32

	mu      sync.Mutex
	blocked bool
	conns   []net.Conn
}

func newReplyDropProxy(t *testing.T, target string) *replyDropProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &replyDropProxy{ln: ln, target: target}
	go p.accept()
	t.Cleanup(func() { ln.Close(); p.cut(true) })
	return p
}

func (p *replyDropProxy) addr() string { return p.ln.Addr().String() }

// throughProxy connects a client to srv through a new replyDropProxy.
func throughProxy(t *testing.T, srv *zktest.Server) (*replyDropProxy, *client.MWZooKeeper) {
	t.Helper()
	px := newReplyDropProxy(t, srv.Addrs[0])
	z, err := client.Connect([]string{px.addr()}, 10*time.Second, client.WithConnectTimeout(20*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { z.Close() })
	return px, z
}

func (p *replyDropProxy) cut(block bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.blocked = block
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *replyDropProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.blocked {
			p.mu.Unlock()
			c.Close()
			continue
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		var mute atomic.Bool // server->client replies are dropped once set
		replied := make(chan struct{}, 1)
		go func() { // client -> server, frame by frame
			defer s.Close()
			first := true
			hdr := make([]byte, 4)
			for {
				if _, err := io.ReadFull(c, hdr); err != nil {
					return
				}
				n := binary.BigEndian.Uint32(hdr)
				body := make([]byte, n)
				if _, err := io.ReadFull(c, body); err != nil {
					return
				}
				hit := false
				if !first && len(body) >= 8 {
					op := int32(binary.BigEndian.Uint32(body[4:8]))
					if (op == 3 || op == 4 || op == 8 || op == 12) && body[len(body)-1] == 1 {
						p.watches.Add(1)
					}
					hit = ((p.op.Load() == 0 && (op == 1 || op == 15)) || (p.op.Load() != 0 && op == p.op.Load())) &&
						p.armed.CompareAndSwap(true, false)
				}
				if hit {
					mute.Store(true) // before the request leaves: its reply must never pass
				}
				if _, err := s.Write(append(append([]byte{}, hdr...), body...)); err != nil {
					return
				}
				if first { // the ConnectRequest has no request header
					first = false
					continue
				}
				if hit {
					// The server has applied the request once its reply
					// arrives (and is dropped); the deadline keeps a broken
					// server from hanging the proxy.
					select {
					case <-replied:
					case <-time.After(10 * time.Second):
					}
					p.fired.Add(1)
					if p.blockAfter.Load() {
						p.mu.Lock()
						p.blocked = true
						p.mu.Unlock()
					}
					c.Close()
					return
				}
			}
		}()
		go func() { // server -> client
			defer c.Close()
			buf := make([]byte, 32*1024)
			for {
				n, err := s.Read(buf)
				if n > 0 && mute.Load() {
					select {
					case replied <- struct{}{}:
					default:
					}
				} else if n > 0 {
					if _, werr := c.Write(buf[:n]); werr != nil {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
	}
}

// TestLockSameSessionLostCreateReply: the Lock's doc allows several
// Locks on one session ("the same session with care: the lock is per node,
// not per session"). Lock A holds the lock; Lock B, on the same session,
// loses the reply of its create. B then looks for "its" node by the session
// id prefix, finds A's node, and believes it holds the lock while A holds
// it too; B's real node is left behind as an orphan that blocks every
// other contender for as long as the session lives.
func TestLockSameSessionLostCreateReply(t *testing.T) {
	srv := zktest.Shared(t)
	dir := zktest.Root(t)
	px, z := throughProxy(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	a := recipes.NewLock(z, dir)
	if err := a.Lock(ctx); err != nil {
		t.Fatal(err)
	}
	px.armed.Store(true)
	b := recipes.NewLock(z, dir)
	errB := make(chan error, 1)
	go func() { errB <- b.Lock(ctx) }()
	select {
	case err := <-errB:
		if px.fired.Load() == 0 {
			t.Fatalf("the proxy never dropped the create's reply (Lock B: %v)", err)
		}
		if err == nil {
			t.Fatalf("two holders at once on one session: A holds %s, B believes it holds %s", a.Node(), b.Node())
		}
		t.Logf("B: %v", err)
	case <-time.After(5 * time.Second):
		t.Logf("B waits, as it should (node %s)", b.Node())
	}
	// Whatever B did, after both have released, the directory must be empty.
	_ = a.Unlock()
	_ = b.Unlock()
	cancel()
	obs, err := client.Connect(srv.Addrs, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer obs.Close()
	kids, err := obs.GetChildren(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(kids) != 0 {
		t.Fatalf("after A and B released, lock nodes left behind: %v (an orphan blocks every other contender)", kids)
	}
}

// TestUnlockAfterExpiry: ticket.release says "A node already gone
// (session expired) is released all the same", but after an expiry the
// handle answers every call with ErrSessionExpired, so Unlock fails and the
// Lock keeps claiming its node.
func TestUnlockAfterExpiry(t *testing.T) {
	srv := zktest.Shared(t)
	dir := zktest.Root(t)
	px := newReplyDropProxy(t, srv.Addrs[0])
	z, err := client.Connect([]string{px.addr()}, time.Second, client.WithConnectTimeout(20*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	obs := connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	l := recipes.NewLock(z, dir)
	if err := l.Lock(ctx); err != nil {
		t.Fatal(err)
	}
	node := l.Node()
	px.cut(true)
	wait.For(t, "the holder's node gone with its session", 30*time.Second, func() bool {
		ok, _, err := obs.Exists(node)
		return err == nil && !ok
	})
	px.cut(false)
	wait.For(t, "the handle to learn of its expiry", 20*time.Second, func() bool {
		return z.State() == client.StateExpired
	})
	if err := l.Unlock(); err != nil {
		t.Fatalf("Unlock after the session expired: %v (Node() still %q)", err, l.Node())
	}
}

// TestLockLostCreateReplyLeavesOrphan: one Lock, one session. The
// create's reply is lost and the server stays out of reach for a few
// seconds. take() retries the create without first finding the node the
// lost create made; after three connection losses Lock gives up with an
// error, yet the node stays, owned by the live session: every other
// contender is blocked for as long as the session lives.
func TestLockLostCreateReplyLeavesOrphan(t *testing.T) {
	srv := zktest.Shared(t)
	dir := zktest.Root(t)
	px := newReplyDropProxy(t, srv.Addrs[0])
	z, err := client.Connect([]string{px.addr()}, 20*time.Second, client.WithConnectTimeout(20*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	other := connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := other.Create(dir, nil, false); err != nil {
		t.Fatal(err)
	}
	px.blockAfter.Store(true)
	px.armed.Store(true)
	errL := make(chan error, 1)
	l := recipes.NewLock(z, dir)
	go func() { errL <- l.Lock(ctx) }()
	var lerr error
	select {
	case lerr = <-errL:
	case <-time.After(3 * time.Second):
		// Still trying: let it reach the server again. The outage (this,
		// plus the client's reconnect back-off) must stay well inside the
		// session (10 s at most on both servers), or the session expires
		// and there is no orphan to look for.
	}
	px.cut(false)
	if lerr == nil {
		select {
		case lerr = <-errL:
		case <-time.After(5 * time.Second):
			kids, _ := other.GetChildren(dir)
			t.Fatalf("Lock on a free lock never returned after the connection came back; queue %v "+
				"(it waits behind the node its own lost create made)", kids)
		}
	}
	if lerr == nil {
		kids, _ := other.GetChildren(dir)
		if len(kids) != 1 {
			t.Fatalf("Lock holds %s, but the queue is %v: the lost create's node is an orphan", l.Node(), kids)
		}
		return
	}
	t.Logf("Lock failed: %v", lerr)
	wait.For(t, "the handle back on its session", 10*time.Second, func() bool {
		return z.State() == client.StateConnected
	})
	kids, err := other.GetChildren(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(kids) != 0 {
		t.Fatalf("Lock failed (%v) but left %v behind, owned by its live session: "+
			"every other contender is blocked until that session ends", lerr, kids)
	}
}
