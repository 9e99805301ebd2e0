package server

import (
	"encoding/binary"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/realzk"
	mw "zablab/mwzookeeper"
)

// hammer keeps two go-zookeeper clients setting path until the test ends.
func hammer(t *testing.T, addr, path string) {
	w1 := zkClient(t, 5*time.Second, addr)
	w2 := zkClient(t, 5*time.Second, addr)
	w1.Create(path, []byte("0"), 0, zk.WorldACL(zk.PermAll))
	var stop atomic.Bool
	var wg sync.WaitGroup
	for _, w := range []*zk.Conn{w1, w2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				w.Set(path, []byte("1"), -1)
			}
		}()
	}
	t.Cleanup(func() { stop.Store(true); wg.Wait() })
}

// eventBeforeReadReply loops getData(path, watch) on a raw connection while
// path keeps changing. After every reply it waits for the event, so an
// event that arrives before reply k can only be the one of the watch that
// getData k set. It returns the round where that happened, or 0.
func eventBeforeReadReply(t *testing.T, addr, path string, d time.Duration) (int, int) {
	hammer(t, addr, path)
	ta, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	r := dialRaw(t, ta)
	r.connect(0, make([]byte, 16), 10000)
	deadline := time.Now().Add(d)
	iters := 0
	for xid := int32(1); time.Now().Before(deadline); xid++ {
		iters++
		r.nc.SetDeadline(time.Now().Add(20 * time.Second))
		r.request(xid, mw.OpGetData, path, true)
		for {
			body := r.readFrame()
			got := int32(binary.BigEndian.Uint32(body))
			if got == -1 {
				return iters, iters
			}
			if got == xid {
				break
			}
		}
		for { // this watch's event, before the next getData
			if int32(binary.BigEndian.Uint32(r.readFrame())) == -1 {
				break
			}
		}
	}
	return 0, iters
}

// TestWatchEventBeforeItsRead: a client must see the reply of the
// getData that set a watch before that watch's event. Real clients
// (go-zookeeper, Java, kazoo) register the watcher when the reply arrives
// and drop an event for a path they do not watch yet, so the notification
// is lost for good. ZooKeeper never sends the event first.
func TestWatchEventBeforeItsRead(t *testing.T) {
	s := startA5(t, "")
	if bad, n := eventBeforeReadReply(t, s.Addr().String(), "/x", 3*time.Second); bad != 0 {
		t.Fatalf("round %d: the watch event for /x arrived before the reply to the getData that set the watch", bad)
	} else {
		t.Logf("%d rounds in order", n)
	}
}

// TestWatchEventBeforeItsReadZK is the control: Apache ZooKeeper 3.8
// keeps the order under the same load (skipped without java or its jars).
func TestWatchEventBeforeItsReadZK(t *testing.T) {
	addr := realzk.StartT(t)
	if bad, n := eventBeforeReadReply(t, addr, "/x-order", 3*time.Second); bad != 0 {
		t.Fatalf("ZooKeeper, round %d: event before the reply", bad)
	} else {
		t.Logf("ZooKeeper: %d rounds in order", n)
	}
}
