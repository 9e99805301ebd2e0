package main

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"
)

// load is one closed-loop workload: clients connections, each running
// inflight loops of op; an op's latency is from its call to its answer.
type load struct {
	name     string
	clients  int
	inflight int
	value    int                                     // bytes written by setData
	prepare  func(cs []*zk.Conn, value []byte) error // before the warm-up
	op       func(c *zk.Conn, client, n int, value []byte) error
}

var worldACL = zk.WorldACL(zk.PermAll)

func key(client int) string { return fmt.Sprintf("/bench/k%d", client) }

// keys creates /bench and a node per client.
func keys(cs []*zk.Conn, value []byte) error {
	for i, c := range cs {
		for _, p := range []string{"/bench", key(i)} {
			if _, err := c.Create(p, value, 0, worldACL); err != nil && !errors.Is(err, zk.ErrNodeExists) {
				return fmt.Errorf("bench: create %s: %w", p, err)
			}
		}
	}
	return nil
}

func setData(c *zk.Conn, client, _ int, v []byte) error {
	_, err := c.Set(key(client), v, -1)
	return err
}

func getData(c *zk.Conn, client, _ int, _ []byte) error {
	_, _, err := c.Get(key(client))
	return err
}

func mixed(c *zk.Conn, client, n int, v []byte) error {
	if n%10 == 0 {
		return setData(c, client, n, v)
	}
	return getData(c, client, n, v)
}

// createDelete is one op of the create+delete load: a create on even
// steps, the delete of that node on odd ones.
func createDelete(c *zk.Conn, client, n int, v []byte) error {
	p := fmt.Sprintf("%s-%d", key(client), n/2)
	if n%2 == 0 {
		_, err := c.Create(p, v, 0, worldACL)
		return err
	}
	return c.Delete(p, -1)
}

// watched is one op of the watch load: set a watch on the client's own
// node, change the node, and wait for the event. The 32 watches of each
// client set by watchNodes are on nodes nobody writes, so 32 clients keep
// 1,024 watches standing while the load runs (a data watch fires once).
func watched(c *zk.Conn, client, _ int, v []byte) error {
	p := key(client)
	_, _, ev, err := c.GetW(p)
	if err != nil {
		return err
	}
	if _, err := c.Set(p, v, -1); err != nil {
		return err
	}
	select {
	case e := <-ev:
		if e.Type != zk.EventNodeDataChanged {
			return fmt.Errorf("bench: watch on %s: event %v", p, e.Type)
		}
		return nil
	case <-time.After(10 * time.Second):
		return fmt.Errorf("bench: no event for %s within 10s", p)
	}
}

const watchesPerClient = 32

// watchNodes gives each client 32 nodes of its own, watched and never
// written: the watches stand through the load.
func watchNodes(cs []*zk.Conn, v []byte) error {
	if err := keys(cs, v); err != nil {
		return err
	}
	for i, c := range cs {
		for j := 0; j < watchesPerClient; j++ {
			p := fmt.Sprintf("%s-w%d", key(i), j)
			if _, err := c.Create(p, v, 0, worldACL); err != nil && !errors.Is(err, zk.ErrNodeExists) {
				return fmt.Errorf("bench: create %s: %w", p, err)
			}
			if _, _, _, err := c.ExistsW(p); err != nil {
				return fmt.Errorf("bench: exists %s: %w", p, err)
			}
		}
	}
	return nil
}

// loads are the workloads of issue 15's table, in its order.
var loads = []load{
	{name: "writes, 32 clients", clients: 32, inflight: 1, value: 1024, prepare: keys, op: setData},
	{name: "reads, 32 clients", clients: 32, inflight: 1, value: 1024, prepare: keys, op: getData},
	{name: "90 % reads, 32 clients", clients: 32, inflight: 1, value: 1024, prepare: keys, op: mixed},
	{name: "writes, 1 client", clients: 1, inflight: 1, value: 1024, prepare: keys, op: setData},
	{name: "writes, 128 clients", clients: 128, inflight: 1, value: 1024, prepare: keys, op: setData},
	{name: "create + delete, 32 clients", clients: 32, inflight: 1, value: 1024, prepare: keys, op: createDelete},
	{name: "writes, 32 clients x 8 pipelined", clients: 32, inflight: 8, value: 1024, prepare: keys, op: setData},
	{name: "writes 64 KiB, 32 clients", clients: 32, inflight: 1, value: 64 << 10, prepare: keys, op: setData},
	{name: "watch + write + event, 1,024 watches", clients: 32, inflight: 1, value: 1024, prepare: watchNodes, op: watched},
}

// sample is what one load measured.
type sample struct {
	ops              int
	errors           int
	seconds          float64
	p50, p99, p999   time.Duration
	cpuBefore, after float64 // the servers' CPU seconds around the measured part
	// The load generator's own CPU seconds (this process) around the
	// measured part: on a machine of two cores it shares them with the
	// servers, which bounds what any server can reach.
	clientBefore, clientAfter float64
}

// drive runs l's op on cs in closed loops for warm plus d and measures
// the last d.
func drive(cs []*zk.Conn, l load, warm, d time.Duration, cpu func() float64) sample {
	value := make([]byte, l.value)
	var mu sync.Mutex
	var lat []time.Duration
	var errs atomic.Int64
	var wg sync.WaitGroup
	start := time.Now().Add(warm)
	end := start.Add(d)
	var s sample
	mark := time.AfterFunc(warm, func() { // the CPU reading where the measured part starts
		mu.Lock()
		s.cpuBefore = cpu()
		s.clientBefore = ownCPUSeconds()
		mu.Unlock()
	})
	defer mark.Stop()
	for i, c := range cs {
		for k := 0; k < l.inflight; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var mine []time.Duration
				for n := k; ; n += l.inflight {
					t0 := time.Now()
					if !t0.Before(end) {
						break
					}
					err := l.op(c, i, n, value)
					if t0.Before(start) {
						continue
					}
					if err != nil {
						errs.Add(1)
						continue
					}
					mine = append(mine, time.Since(t0))
				}
				mu.Lock()
				lat = append(lat, mine...)
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	s.after = cpu()
	s.clientAfter = ownCPUSeconds()
	s.seconds = time.Since(start).Seconds()
	s.ops, s.errors = len(lat), int(errs.Load())
	if len(lat) > 0 {
		slices.Sort(lat)
		s.p50, s.p99, s.p999 = rank(lat, 50), rank(lat, 99), rank(lat, 99.9)
	}
	return s
}

// rank is the nearest-rank percentile p of the sorted lat: the smallest
// value that at least p % of the values do not exceed.
func rank(lat []time.Duration, p float64) time.Duration {
	i := int(math.Ceil(p/100*float64(len(lat)))) - 1
	return lat[min(max(i, 0), len(lat)-1)]
}
