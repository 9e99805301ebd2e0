package zab

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"zablab/internal/wait"
)

// failingApp's SetState fails once armed; in the Status(LOOKING) that the
// peer reports when it stops by itself, it calls Propose.
type failingApp struct {
	*recorder
	armed    atomic.Bool
	mu       sync.Mutex
	lookings int
	afterErr []error // Propose's answers from Status(LOOKING) after SetState failed
	failed   atomic.Bool
	z        atomic.Pointer[MultiZab]
}

func (a *failingApp) SetState(r io.Reader, c TxnCookie) error {
	if a.armed.Load() {
		a.failed.Store(true)
		return errors.New("test: SetState refuses")
	}
	return a.recorder.SetState(r, c)
}

func (a *failingApp) Status(s Status, leader string) {
	a.recorder.Status(s, leader)
	if s == Looking && a.failed.Load() {
		if z := a.z.Load(); z != nil {
			_, err := z.Propose([]byte("after the end"))
			a.mu.Lock()
			a.afterErr = append(a.afterErr, err)
			a.mu.Unlock()
		}
	}
}

// threads.md: after a storage/SetState failure "Status(LOOKING) told, then
// Propose answers ErrClosed"; go doc: LOOKING means Propose fails with
// ErrNoLeader. run tells Status(LOOKING) before it closes done, so it must
// stop accepting first: a Propose made on hearing that final LOOKING must
// fail, not return a cookie for a request nobody will ever take.
func TestProposeAfterFinalLookingGetsNoCookie(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	for i := range e.cfgs {
		e.cfgs[i].SnapCount = 5
	}
	e.startAll()
	l := e.leader()
	f := l%3 + 1
	e.stop(f)
	for i := 0; i < 30; i++ { // the leader's log moves past f: f will need SNAP
		e.commit(l, fmt.Sprint("m", i))
	}
	app := &failingApp{recorder: &recorder{}}
	ln := e.lns[f-1]
	if ln == nil {
		ln = listenAgain(t, e, f)
	}
	e.lns[f-1] = nil
	e.apps[f-1] = app.recorder
	z, err := newMultiZab(app, e.cfgs[f-1], ln)
	if err != nil {
		t.Fatal(err)
	}
	app.z.Store(z)
	if err := z.Startup(); err != nil {
		t.Fatal(err)
	}
	app.armed.Store(true) // the SNAP install's SetState fails
	defer z.Shutdown()    // returns the SetState failure: not the ensemble helper's job
	wait.For(t, "f to stop by itself and report LOOKING", 10*time.Second, func() bool {
		app.mu.Lock()
		defer app.mu.Unlock()
		return len(app.afterErr) > 0
	})
	app.mu.Lock()
	defer app.mu.Unlock()
	for _, err := range app.afterErr {
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("Propose in the final Status(LOOKING) of a peer that stopped (SetState failed) returned a cookie; answers: %v", app.afterErr)
		}
	}
	t.Logf("answers: %v", app.afterErr)
}

func listenAgain(t *testing.T, e *ensemble, i int) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", e.cfgs[i-1].Peers[i-1].Addr)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
