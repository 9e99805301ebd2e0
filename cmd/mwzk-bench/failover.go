package main

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"
)

// failoverLimit bounds one trial: a failover slower than this is reported
// as a failure, not waited for.
const failoverLimit = 60 * time.Second

// failover kills server victim with SIGKILL while a go-zookeeper client
// connected to the servers via writes in a closed loop, and returns the
// time from the kill to the acknowledgement of the first write the client
// sent after it (a write in flight at the kill does not count).
func failover(e ensemble, victim int, via []string) (time.Duration, error) {
	c, err := connect(via, 10*time.Second)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	const path = "/bench-failover"
	if _, err := c.Create(path, nil, 0, worldACL); err != nil && !errors.Is(err, zk.ErrNodeExists) {
		return 0, fmt.Errorf("bench: create %s: %w", path, err)
	}
	var killedAt atomic.Int64 // unix nanoseconds, 0 before the kill
	warm := make(chan struct{})
	first := make(chan time.Time, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		acked := 0
		for {
			select {
			case <-stop:
				return
			default:
			}
			t0 := time.Now()
			_, err := c.Set(path, []byte("x"), -1)
			if err != nil {
				continue // the failover: go-zookeeper answers at once while it reconnects
			}
			if acked++; acked == 20 {
				close(warm)
			}
			if k := killedAt.Load(); k != 0 && t0.UnixNano() >= k {
				first <- time.Now()
				return
			}
		}
	}()
	select {
	case <-warm:
	case <-time.After(30 * time.Second):
		return 0, fmt.Errorf("bench: fewer than 20 writes acknowledged by %v in 30s before the kill", via)
	}
	t0 := time.Now()
	killedAt.Store(t0.UnixNano())
	e.kill(victim)
	select {
	case t1 := <-first:
		return t1.Sub(t0), nil
	case <-time.After(failoverLimit):
		return 0, fmt.Errorf("bench: no write acknowledged by %v within %v of killing %s", via, failoverLimit, e.addrs()[victim])
	}
}

// connect opens a session on servers and waits until it is established.
func connect(servers []string, timeout time.Duration) (*zk.Conn, error) {
	c, ev, err := zk.Connect(servers, timeout, zk.WithLogger(quiet{}))
	if err != nil {
		return nil, fmt.Errorf("bench: connect %v: %w", servers, err)
	}
	deadline := time.After(30 * time.Second)
	for {
		select {
		case e := <-ev:
			if e.State == zk.StateHasSession {
				go drain(ev)
				return c, nil
			}
		case <-deadline:
			c.Close()
			return nil, fmt.Errorf("bench: no session from %v within 30s", servers)
		}
	}
}

func drain(ev <-chan zk.Event) {
	for range ev {
	}
}

// quiet keeps go-zookeeper's reconnect lines out of the bench's table.
type quiet struct{}

func (quiet) Printf(string, ...any) {}
