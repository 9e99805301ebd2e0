package aufgabe5

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

// TestWatchEventAfterTheReadThatSetIt: ZooKeeper's FinalRequestProcessor
// sends a read's reply before any later event, and its clients register a
// watcher only when the reply arrives: an event ahead of its read's reply
// finds no watcher and is lost. So submitLocal gives a read's reply under
// the lock that registered its watch. (Found in review: reply was called
// after the lock was released, and a write delivered in that gap fired the
// new watch through Host.Notify first.) The test counts, in each read's
// reply callback, the events the host got for the reader's session already.
func TestWatchEventAfterTheReadThatSetIt(t *testing.T) {
	e := start(t, 1, svctest.Options{})
	reader := e.Session(t, 1, time.Minute)
	writer := e.Session(t, 1, time.Minute)
	mustOK(t, "create", create(e, t, 1, writer, "/w", "0", mwzookeeper.Persistent))
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			<-e.DoAsync(1, &req{Op: mwzookeeper.OpSetData, Session: writer, Path: "/w", Data: []byte("x"), Version: -1})
		}
	}()
	defer func() { stop.Store(true); wg.Wait() }()
	h := e.Host(1)
	svc := e.Service(1)
	deadline := time.Now().Add(4 * time.Second)
	rounds := 0
	for time.Now().Before(deadline) {
		rounds++
		before := len(h.Events(reader))
		got := make(chan int, 1)
		svc.Submit(&req{Op: mwzookeeper.OpGetData, Session: reader, Path: "/w", Watch: true}, func(r *resp) {
			got <- len(h.Events(reader)) // what the server has been told before this reply
		})
		at := <-got
		if at > before {
			stop.Store(true)
			t.Fatalf("round %d: the NodeDataChanged event of the watch set by getData reached Host.Notify before that getData's reply was given (%d events before the read, %d when its reply came)", rounds, before, at)
		}
		wait.For(t, "the watch fires with the next setData", 5*time.Second, func() bool { return len(h.Events(reader)) > before })
	}
	t.Logf("%d rounds without an event ahead of its read's reply", rounds)
}
