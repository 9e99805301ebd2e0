package zab

import (
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"zablab/internal/wait"
)

// gatedApp is the recorder with a GetState that can be held up, like a
// large application state streaming to disk.
type gatedApp struct {
	*recorder
	block   atomic.Bool
	inGet   chan struct{}
	once    sync.Once
	release chan struct{}
}

func newGatedApp() *gatedApp {
	return &gatedApp{recorder: &recorder{}, inGet: make(chan struct{}), release: make(chan struct{})}
}

func (g *gatedApp) GetState(w io.Writer) error {
	if g.block.Load() {
		g.once.Do(func() { close(g.inGet) })
		<-g.release
	}
	return g.recorder.GetState(w)
}

func startGated(e *ensemble, i int, app *gatedApp) {
	e.t.Helper()
	ln := e.lns[i-1]
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", e.cfgs[i-1].Peers[i-1].Addr); err != nil {
			e.t.Fatal(err)
		}
	}
	e.lns[i-1] = nil
	e.apps[i-1] = app.recorder
	z, err := newMultiZab(app, e.cfgs[i-1], ln)
	if err == nil {
		err = z.Startup()
	}
	if err != nil {
		e.t.Fatalf("peer %d: %v", i, err)
	}
	e.zabs[i-1] = z
}

// The go doc: GetState runs on its own goroutine "while the protocol goes
// on", so "a large state delays deliveries but does not cost the ensemble
// its leader". A follower that comes back behind the leader's log needs a
// SNAP; the leader's protocol goroutine reads its latest snapshot for it
// (core.sendNewLeader -> Store.LatestSnapshot -> FileSnapshots.Latest),
// which must not wait for the GetState being streamed (SaveFrom once held
// FileSnapshots.mu throughout): else the leader goes silent, the returning
// follower is not synced and the healthy follower goes LOOKING.
func TestLeaderSnapshotInProgressDoesNotStallSnapToReturningFollower(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	apps := make([]*gatedApp, 3)
	for i := range e.cfgs {
		e.cfgs[i].SnapCount = 5
		apps[i] = newGatedApp()
	}
	for i := range e.cfgs {
		startGated(e, i+1, apps[i])
	}
	wait.For(t, "a settled ensemble", 10*time.Second, e.settled)
	l := e.leader()
	f, g := l%3+1, (l+1)%3+1
	e.stop(f)
	for i := 0; i < 30; i++ { // the leader snapshots and drops its log past f
		e.commit(l, fmt.Sprint("m", i))
	}
	apps[l-1].block.Store(true)
	defer close(apps[l-1].release)
	for i := 0; ; i++ {
		e.propose(l, fmt.Sprint("n", i))
		select {
		case <-apps[l-1].inGet:
		case <-time.After(200 * time.Millisecond):
			if i < 20 {
				continue
			}
			t.Fatal("the leader never started a snapshot")
		}
		break
	}
	// The leader's GetState is streaming (held up). Bring f back.
	fa := newGatedApp()
	startGated(e, f, fa)
	limit := 1500 * time.Millisecond
	start := time.Now()
	gLooked := false
	for time.Since(start) < limit {
		if _, s := e.apps[g-1].snapshot(); s == Looking {
			gLooked = true
		}
		if _, s := fa.snapshot(); s == Following && !gLooked {
			return // synced by SNAP while the leader's snapshot is written
		}
		time.Sleep(2 * time.Millisecond)
	}
	_, fs := fa.snapshot()
	t.Fatalf("while leader %d's GetState streamed for %v: returning follower %d status %v, healthy follower %d went LOOKING: %v",
		l, limit, f, fs, g, gLooked)
}
