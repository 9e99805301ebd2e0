package server

import (
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/wait"
	"zablab/solutions/aufgabe5"
)

// TestMeasure is a first measurement, not a timed test: it runs only with
// ZABLAB_MEASURE=1 (make it brief: go test -run Measure -v ./server);
// ZABLAB_MEASURE=zk runs the same load against Apache ZooKeeper.
// 32 go-zookeeper clients on a 3-server ensemble of the reference Service
// write 1 KiB values, then read them, for a few seconds each; it prints
// operations per second and the p50 and p99 latency.
func TestMeasure(t *testing.T) {
	if os.Getenv("ZABLAB_MEASURE") == "" {
		t.Skip("set ZABLAB_MEASURE=1 to measure throughput")
	}
	d := 5 * time.Second
	if v, err := time.ParseDuration(os.Getenv("ZABLAB_MEASURE_FOR")); err == nil {
		d = v
	}
	var addrs []string
	if os.Getenv("ZABLAB_MEASURE") == "zk" {
		addrs = startApacheZK(t) // the yardstick, same load
	} else {
		addrs = startEnsemble(t, 3, aufgabe5.New).addrs
	}
	const clients = 32
	conns := make([]*zk.Conn, clients)
	for i := range conns {
		conns[i] = zkClient(t, 10*time.Second, addrs[i%3])
	}
	value := make([]byte, 1024)
	for i, c := range conns {
		for _, p := range []string{"/bench", fmt.Sprintf("/bench/k%d", i)} {
			wait.For(t, "create "+p, 20*time.Second, func() bool { // retried: a loaded machine may lose a leader
				_, err := c.Create(p, value, 0, acl)
				return err == nil || err == zk.ErrNodeExists
			})
		}
	}
	write := func(c *zk.Conn, i int) error {
		_, err := c.Set(fmt.Sprintf("/bench/k%d", i), value, -1)
		return err
	}
	read := func(c *zk.Conn, i int) error {
		_, _, err := c.Get(fmt.Sprintf("/bench/k%d", i))
		return err
	}
	for _, phase := range []struct {
		name string
		op   func(*zk.Conn, int) error
	}{{"write (setData 1 KiB)", write}, {"read (getData 1 KiB)", read}} {
		ops, p50, p99 := drive(t, conns, d, phase.op)
		t.Logf("%-22s %d clients: %8.0f ops/s  p50 %v  p99 %v", phase.name, clients, ops, p50, p99)
	}
}

// drive runs op in a closed loop on every connection for d.
func drive(t *testing.T, conns []*zk.Conn, d time.Duration, op func(*zk.Conn, int) error) (float64, time.Duration, time.Duration) {
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	var errs atomic.Int64
	defer func() {
		if n := errs.Load(); n > 0 {
			t.Logf("%d operations failed (connection loss) and were not counted", n)
		}
	}()
	start := time.Now()
	end := start.Add(d)
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for time.Now().Before(end) {
				t0 := time.Now()
				if err := op(c, i); err != nil {
					errs.Add(1) // a leader change on a loaded machine: counted, not fatal
					continue
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	el := time.Since(start)
	if len(lat) == 0 {
		return 0, 0, 0
	}
	slices.Sort(lat)
	return float64(len(lat)) / el.Seconds(), lat[len(lat)/2], lat[len(lat)*99/100]
}
