package wait

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestForReturnsOnceTheConditionHolds(t *testing.T) {
	var n atomic.Int32
	For(t, "three polls", time.Second, func() bool { return n.Add(1) >= 3 })
	if n.Load() != 3 {
		t.Fatalf("polled %d times, want 3", n.Load())
	}
}

// failRecorder records a Fatalf instead of ending the test.
type failRecorder struct {
	testing.TB
	failed bool
}

func (f *failRecorder) Helper() {}
func (f *failRecorder) Fatalf(string, ...any) {
	f.failed = true
	panic(f)
}

func TestForFailsAfterTheDeadline(t *testing.T) {
	r := &failRecorder{TB: t}
	func() {
		defer func() { _ = recover() }()
		For(r, "never", 20*time.Millisecond, func() bool { return false })
	}()
	if !r.failed {
		t.Fatal("For did not fail when the condition never held")
	}
}
