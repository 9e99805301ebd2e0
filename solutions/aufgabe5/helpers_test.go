package aufgabe5

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
)

// Short names for the tests.
type (
	req  = mwzookeeper.Request
	resp = mwzookeeper.Response
)

func start(t *testing.T, n int, o svctest.Options) *svctest.Ensemble {
	t.Helper()
	return svctest.Start(t, New, n, o)
}

// mustOK fails t unless r succeeded.
func mustOK(t testing.TB, what string, r *resp) *resp {
	t.Helper()
	if r.Err != nil {
		t.Fatalf("%s: %v", what, r.Err)
	}
	return r
}

// mustErr fails t unless r failed with want.
func mustErr(t testing.TB, what string, r *resp, want error) {
	t.Helper()
	if !errors.Is(r.Err, want) {
		t.Fatalf("%s: got %v, want %v", what, r.Err, want)
	}
}

func create(e *svctest.Ensemble, t testing.TB, i int, s int64, path string, data string, mode mwzookeeper.CreateMode) *resp {
	t.Helper()
	return e.Do(t, i, &req{Op: mwzookeeper.OpCreate, Session: s, Path: path, Data: []byte(data), Mode: mode})
}

// state returns replica i's snapshot bytes.
func state(t testing.TB, e *svctest.Ensemble, i int) []byte {
	t.Helper()
	s := e.Service(i).(*Service)
	var b bytesBuffer
	s.mu.Lock()
	err := s.writeState(&b)
	s.mu.Unlock()
	if err != nil {
		t.Fatalf("replica %d: GetState: %v", i, err)
	}
	return b
}

type bytesBuffer []byte

func (b *bytesBuffer) Write(p []byte) (int, error) { *b = append(*b, p...); return len(p), nil }

// zxidOf returns replica i's last applied zxid.
func zxidOf(e *svctest.Ensemble, i int) int64 {
	return e.Service(i).(mwzookeeper.Reporter).Stats().Zxid
}

// waitSame waits until every running replica has applied the same last
// zxid, then requires the same snapshot bytes: two snapshots at the same
// zxid that differ fail at once (waiting for them to agree could hide an
// encoding that depends on map order).
func waitSame(t *testing.T, e *svctest.Ensemble) {
	t.Helper()
	var last string
	wait.For(t, "the same last zxid on every replica", 20*time.Second, func() bool {
		var ref []byte
		refI := 0
		last = ""
		for i := 1; i <= e.N(); i++ {
			if e.Service(i) == nil {
				continue
			}
			b := state(t, e, i)
			last += fmt.Sprintf(" replica %d: zxid %#x, %d bytes;", i, snapZxid(b), len(b))
			switch {
			case ref == nil:
				ref, refI = b, i
			case snapZxid(b) != snapZxid(ref):
				return false
			case string(b) != string(ref):
				t.Fatalf("replicas %d and %d differ at the same zxid %#x:%s", refI, i, snapZxid(b), last)
			}
		}
		return true
	})
	t.Logf("same state:%s", last)
}

// snapZxid reads the last zxid from a snapshot's header.
func snapZxid(b []byte) int64 {
	d := decoder{b: b, off: len(stateMagic) + 1}
	return d.varint()
}

func hex(v int64) string { return fmt.Sprintf("%#x", v) }
