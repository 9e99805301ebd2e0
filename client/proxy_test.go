package client_test

import (
	"io"
	"net"
	"sync"
	"testing"
)

// proxy forwards TCP connections to a server and can cut them: the
// client then sees its server vanish while the session lives on there.
type proxy struct {
	ln     net.Listener
	target string

	mu      sync.Mutex
	blocked bool       // refuse new connections
	conns   []net.Conn // guarded by mu
}

func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	go p.accept()
	t.Cleanup(func() { ln.Close(); p.cut(true) })
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) accept() {
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
		go func() { io.Copy(s, c); s.Close() }()
		go func() { io.Copy(c, s); c.Close() }()
	}
}

// cut closes every forwarded connection; block refuses new ones until
// cut(false).
func (p *proxy) cut(block bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.blocked = block
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}
