package stacks

import (
	"strings"
	"sync"
	"testing"
	"time"

	"zablab/internal/wait"
)

// A dump as Go prints it: a goroutine deadlocked in the graded package
// under Zab's callback (a helper that locks, called with the lock held),
// an idle one in a select, a bystander waiting for the same lock (listed
// after the deeper one), and one without the package.
const dump = `goroutine 7 [select]:
zablab/assignments/aufgabe5.(*Service).livenessLoop(0xc000120000)
	/home/s/aufgabe5/liveness.go:40 +0x1a5
created by zablab/assignments/aufgabe5.(*Service).Start in goroutine 6
	/home/s/aufgabe5/service.go:88 +0x2b1

goroutine 12 [sync.Mutex.Lock]:
sync.(*Mutex).Lock(...)
	/usr/lib/go/src/sync/mutex.go:46
zablab/assignments/aufgabe5.(*Service).sweepCandidates(0xc000120000)
	/home/s/aufgabe5/extended.go:208 +0x45
created by zablab/assignments/aufgabe5.(*Service).Start in goroutine 6
	/home/s/aufgabe5/service.go:90 +0x2b1

goroutine 18 [sync.Mutex.Lock, 2 minutes]:
internal/sync.runtime_SemacquireMutex(0xc0000a2004?, 0x0?, 0x0?)
	/usr/lib/go/src/runtime/sema.go:95 +0x25
sync.(*Mutex).Lock(...)
	/usr/lib/go/src/sync/mutex.go:46
zablab/assignments/aufgabe5.(*Service).sessionExists(0xc000120000, 0x1)
	/home/s/aufgabe5/sessions.go:51 +0x45
zablab/assignments/aufgabe5.(*Service).Deliver(0xc000120000, {0xc0001c2000, 0x20, 0x20})
	/home/s/aufgabe5/callback.go:20 +0x90
zablab/zab.(*runtime).deliver(0xc0000b4000)
	/home/s/zab/runtime.go:300 +0x55
created by zablab/zab.Startup in goroutine 6
	/home/s/zab/api.go:70 +0x2b1

goroutine 9 [IO wait]:
internal/poll.runtime_pollWait(0x7f, 0x72)
	/usr/lib/go/src/runtime/netpoll.go:351 +0x85
`

func TestDescribeNamesTheBlockedGraded(t *testing.T) {
	got := Describe(Parse(dump), "zablab/assignments/aufgabe5", 6)
	want := `
  goroutine 18 [sync.Mutex.Lock, 2 minutes], waiting in sync.(*Mutex).Lock
      (*Service).sessionExists (sessions.go:51)
      (*Service).Deliver (callback.go:20)
      called by zab.(*runtime).deliver
  goroutine 12 [sync.Mutex.Lock], waiting in sync.(*Mutex).Lock
      (*Service).sweepCandidates (extended.go:208)
      a goroutine started by (*Service).Start
  goroutine 7 [select]
      (*Service).livenessLoop (liveness.go:40)
      a goroutine started by (*Service).Start`
	if got != want {
		t.Fatalf("Describe:\n%s\nwant:\n%s", got, want)
	}
}

func TestDescribeWithoutThePackageIsEmpty(t *testing.T) {
	if got := Describe(Parse(dump), "zablab/solutions/aufgabe5", 6); got != "" {
		t.Fatalf("Describe of a package without goroutines: %q, want \"\"", got)
	}
}

// A goroutine blocked for real on a held lock shows up, live, with the
// lock it waits in and the function of this test that called it.
func TestInsideFindsALiveBlockedGoroutine(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	started := make(chan struct{})
	done := make(chan struct{})
	go func() {
		close(started)
		mu.Lock() // blocks until the test unlocks
		mu.Unlock()
		close(done)
	}()
	<-started
	var got string
	wait.For(t, "the goroutine blocked in sync.(*Mutex).Lock", 5*time.Second, func() bool {
		got = Inside("sync")
		return strings.Contains(got, "(*Mutex).Lock (mutex.go:")
	})
	mu.Unlock()
	<-done
	if !strings.Contains(got, "called by stacks.TestInsideFindsALiveBlockedGoroutine.func1") {
		t.Fatalf("Inside(sync) does not name the caller:%s", got)
	}
}

func TestPackageOf(t *testing.T) {
	type local struct{}
	for _, c := range []struct {
		v    any
		want string
	}{{&local{}, "zablab/internal/stacks"}, {local{}, "zablab/internal/stacks"}, {nil, ""}, {3, ""}} {
		if got := PackageOf(c.v); got != c.want {
			t.Errorf("PackageOf(%T) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestParseWithoutBlankLines: the grader keeps a run's output line by line
// and drops blank ones; the goroutines still part at their headers, so a
// crash's frames are not chained to the next goroutine's.
func TestParseWithoutBlankLines(t *testing.T) {
	var kept []string
	for _, l := range strings.Split("fatal error: concurrent map writes\n\n"+dump, "\n") {
		if l != "" {
			kept = append(kept, l)
		}
	}
	with, without := Parse("fatal error: concurrent map writes\n\n"+dump), Parse(strings.Join(kept, "\n"))
	if len(with) != 4 || len(without) != len(with) {
		t.Fatalf("%d goroutines with blank lines, %d without; want 4 both", len(with), len(without))
	}
	for i := range with {
		if with[i].Header != without[i].Header || len(with[i].Frames) != len(without[i].Frames) {
			t.Errorf("goroutine %d: %+v with blank lines, %+v without", i, with[i], without[i])
		}
	}
}

// TestTestFilesAreNotThePackagesCode: frames of the package's test files
// (the factory, the harness) do not make a goroutine the package's.
func TestTestFilesAreNotThePackagesCode(t *testing.T) {
	const harness = `goroutine 19 [chan receive]:
zablab/assignments/aufgabe5.TestConformance.func1(0x394f0d54488?)
	/work/tree/assignments/aufgabe5/x_test.go:5 +0x26
testing.tRunner(0x394f0d54488, 0x592ee8)
	/goroot/src/testing/testing.go:2036 +0xea
`
	gs := Parse(harness)
	if got := Describe(gs, "zablab/assignments/aufgabe5", 6); got != "" {
		t.Errorf("Describe of a harness goroutine: %q, want \"\"", got)
	}
	if got := Frames(gs[0], "zablab/assignments/aufgabe5"); len(got) != 0 {
		t.Errorf("Frames of a harness goroutine: %q, want none", got)
	}
}
