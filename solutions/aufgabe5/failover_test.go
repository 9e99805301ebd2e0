package aufgabe5

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

// outcome of one write of the failover test.
type outcome struct {
	id  string
	err error
}

// TestLeaderStoppedMidStream: sessions on every replica pipeline
// sequential creates, each with a unique datum; the leader's replica is
// stopped in the middle. Afterwards every answered write is present
// exactly once on every replica, every write answered with ConnectionLoss
// at most once, and no other answer was given.
func TestLeaderStoppedMidStream(t *testing.T) {
	e := start(t, 3, svctest.Options{})
	s0 := e.Session(t, 1, time.Minute)
	mustOK(t, "create /f", create(e, t, 1, s0, "/f", "", mwzookeeper.Persistent))
	leader := e.Leader()
	watcher := leader%3 + 1
	e.Do(t, watcher, &req{Op: mwzookeeper.OpExists, Session: s0, Path: "/nothing", Watch: true})
	var answered atomic.Int32
	var mu sync.Mutex
	var outs []outcome
	var wg sync.WaitGroup
	for i := 1; i <= 3; i++ {
		s := e.Session(t, i, time.Minute)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 300; k++ {
				id := fmt.Sprintf("r%d-%d", i, k)
				ch := e.DoAsync(i, &req{Op: mwzookeeper.OpCreate, Session: s, Path: "/f/n-", Data: []byte(id),
					Mode: mwzookeeper.PersistentSequential})
				got := make(chan struct{})
				go func() {
					defer close(got)
					var r *resp
					select {
					case r = <-ch:
					case <-time.After(30 * time.Second):
						r = &resp{Err: errors.New("no reply")}
					}
					mu.Lock()
					outs = append(outs, outcome{id, r.Err})
					mu.Unlock()
					answered.Add(1) // after the append: 900 answers means outs is complete
				}()
				if k%8 == 7 {
					<-got // a window of about eight, so the stop lands mid-stream
				}
			}
		}()
	}
	wait.For(t, "200 answers", 20*time.Second, func() bool { return answered.Load() >= 200 })
	if err := e.Stop(leader); err != nil {
		t.Fatalf("stop leader %d: %v", leader, err)
	}
	wg.Wait()
	wait.For(t, "every answer", 40*time.Second, func() bool { return answered.Load() == 900 })
	for i := 1; i <= 3; i++ {
		if i != leader {
			e.WaitServing(t, i)
			if e.Host(i).ServingLost() == 0 {
				t.Errorf("replica %d never stopped serving when its leader went", i)
			}
		}
	}
	if n := e.Service(watcher).(mwzookeeper.Reporter).Stats().Watches; n != 0 {
		t.Errorf("replica %d kept %d watches of connections closed when it lost its leader", watcher, n)
	}
	if err := e.Restart(leader); err != nil {
		t.Fatal(err)
	}
	e.WaitServing(t, leader)
	mustOK(t, "a write after the restart", create(e, t, 1, s0, "/f/last", "", mwzookeeper.Persistent))
	waitSame(t, e)
	mu.Lock()
	defer mu.Unlock()
	checkOutcomes(t, e, outs)
}

// checkOutcomes counts each datum under /f on every replica.
func checkOutcomes(t *testing.T, e *svctest.Ensemble, outs []outcome) {
	t.Helper()
	var ok, lost int
	for i := 1; i <= e.N(); i++ {
		svc := e.Service(i).(*Service)
		count := map[string]int{}
		svc.mu.Lock()
		for _, c := range svc.tree.get("/f").sortedChildren() {
			count[string(svc.tree.get("/f/"+c).data)]++
		}
		svc.mu.Unlock()
		ok, lost = 0, 0
		for _, o := range outs {
			switch {
			case o.err == nil:
				ok++
				if count[o.id] != 1 {
					t.Fatalf("replica %d: answered write %s present %d times", i, o.id, count[o.id])
				}
			case errors.Is(o.err, mwzookeeper.ErrConnectionLoss):
				lost++
				if count[o.id] > 1 {
					t.Fatalf("replica %d: write %s answered ConnectionLoss applied %d times", i, o.id, count[o.id])
				}
			default:
				t.Fatalf("write %s: unexpected answer %v", o.id, o.err)
			}
		}
	}
	t.Logf("%d writes answered, %d lost with the connection", ok, lost)
	if ok == 0 || lost == 0 {
		t.Fatalf("the stop did not land mid-stream: %d answered, %d lost", ok, lost)
	}
}
