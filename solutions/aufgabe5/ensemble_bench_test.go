package aufgabe5

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// BenchmarkEnsembleWrites measures writes through three replicas in one
// process (real Zab over loopback, fsync included): 12 sessions, four on
// each replica, each with up to 64 creates of 100 bytes in flight.
func BenchmarkEnsembleWrites(b *testing.B) {
	e := svctest.Start(b, New, 3, svctest.Options{TickTime: 100 * time.Millisecond})
	data := make([]byte, 100)
	const sessions, window = 12, 64
	ids := make([]int64, sessions)
	for k := range ids {
		ids[k] = e.Session(b, k%3+1, time.Minute)
	}
	b.ResetTimer()
	var wg sync.WaitGroup
	for k := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			inflight := make(chan (<-chan *resp), window)
			done := make(chan struct{})
			go func() {
				defer close(done)
				for ch := range inflight {
					if r := <-ch; r.Err != nil {
						b.Errorf("write: %v", r.Err)
					}
				}
			}()
			for n := k; n < b.N; n += sessions {
				inflight <- e.DoAsync(k%3+1, &req{Op: mwzookeeper.OpCreate, Session: ids[k], Path: fmt.Sprintf("/n%d", n), Data: data})
			}
			close(inflight)
			<-done
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "writes/s")
}
