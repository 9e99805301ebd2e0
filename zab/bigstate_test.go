package zab

import (
	"fmt"
	"io"
	"os"
	"sync"
	"testing"
	"time"

	"zablab/internal/wait"
)

// bigApp is a recorder with a large blob besides its messages, to measure
// what a snapshot of a large state costs the protocol goroutine.
type bigApp struct {
	*recorder
	blob     []byte
	mu       sync.Mutex
	getMax   time.Duration
	lookings int
}

func (b *bigApp) GetState(w io.Writer) error {
	start := time.Now()
	if _, err := w.Write(b.blob); err != nil {
		return err
	}
	err := b.recorder.GetState(w)
	b.mu.Lock()
	b.getMax = max(b.getMax, time.Since(start))
	b.mu.Unlock()
	return err
}

func (b *bigApp) SetState(r io.Reader, c TxnCookie) error {
	if _, err := io.CopyN(io.Discard, r, int64(len(b.blob))); err != nil && err != io.EOF {
		return err
	}
	return b.recorder.SetState(r, c)
}

func (b *bigApp) Status(s Status, leader string) {
	b.recorder.Status(s, leader)
	if s == Looking {
		b.mu.Lock()
		b.lookings++
		b.mu.Unlock()
	}
}

// TestBigStateSnapshotKeepsLeader measures a 200 MiB GetState with the
// testdata tick (100 ms, syncLimit 5). It takes a few seconds and 1 GiB of
// memory, so it runs only with ZAB_BIG_STATE=1.
func TestBigStateSnapshotKeepsLeader(t *testing.T) {
	if os.Getenv("ZAB_BIG_STATE") == "" {
		t.Skip("set ZAB_BIG_STATE=1 to measure a 200 MiB snapshot")
	}
	e := newEnsemble(t, 3)
	defer e.stopAll()
	var apps []*bigApp
	for i := range e.cfgs {
		e.cfgs[i].TickTime, e.cfgs[i].SyncLimit, e.cfgs[i].SnapCount = 100*time.Millisecond, 5, 20
		blob := make([]byte, 200<<20)
		for j := range blob {
			blob[j] = byte(j)
		}
		apps = append(apps, &bigApp{recorder: e.apps[i], blob: blob})
	}
	for i := range e.cfgs {
		z, err := newMultiZab(apps[i], e.cfgs[i], e.lns[i])
		if err == nil {
			err = z.Startup()
		}
		if err != nil {
			t.Fatal(err)
		}
		e.lns[i], e.zabs[i] = nil, z
	}
	wait.For(t, "a settled ensemble", 20*time.Second, e.settled)
	before := 0
	for _, a := range apps {
		a.mu.Lock()
		before += a.lookings
		a.mu.Unlock()
	}
	l := e.leader()
	start := time.Now()
	for i := 0; i < 45; i++ { // two snapshots on every peer
		e.commit(l, fmt.Sprint("m", i))
	}
	took := time.Since(start)
	after := 0
	var getMax time.Duration
	for _, a := range apps {
		a.mu.Lock()
		after += a.lookings
		getMax = max(getMax, a.getMax)
		a.mu.Unlock()
	}
	t.Logf("45 commits with 2 snapshots of 200 MiB per peer took %s; longest GetState %s; LOOKING reports during it: %d",
		took.Round(time.Millisecond), getMax.Round(time.Millisecond), after-before)
	if after != before {
		t.Errorf("the ensemble lost its leader while taking snapshots (%d LOOKING reports)", after-before)
	}
}
