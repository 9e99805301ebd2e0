package aufgabe5_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"zablab/internal/procs"
	"zablab/mwzookeeper"
	"zablab/mwzookeeper/conformance"
	"zablab/solutions/aufgabe5"
)

// wrapped is the reference Service inside a test's changed one: it passes
// Stats through, so the changed Service reports what the reference does.
type wrapped struct{ mwzookeeper.Service }

func (w wrapped) Stats() mwzookeeper.Stats {
	if r, ok := w.Service.(mwzookeeper.Reporter); ok {
		return r.Stats()
	}
	return mwzookeeper.Stats{}
}

// changedServices are the reference with one change each, whose verdict
// from the suite a test checks: conformance.Run on them fails, so it runs
// in a child process (runConformanceChild), TestChangedServiceConformance.
var changedServices = map[string]func() mwzookeeper.Service{
	"lossy": func() mwzookeeper.Service { return lossy{wrapped{aufgabe5.New()}} },
	"electing": func() mwzookeeper.Service {
		return &electing{wrapped: wrapped{aufgabe5.New()}, seen: map[string]int{}}
	},
}

// changedServiceEnv names the changed Service a child process grades.
const changedServiceEnv = "MWZK_CHANGED_SERVICE"

// TestChangedServiceConformance runs the suite on the changed Service named
// by changedServiceEnv; only runConformanceChild sets it.
func TestChangedServiceConformance(t *testing.T) {
	name := os.Getenv(changedServiceEnv)
	if name == "" {
		t.Skip("runs only in a child process started by runConformanceChild")
	}
	newService, ok := changedServices[name]
	if !ok {
		t.Fatalf("%s=%q names no changed Service", changedServiceEnv, name)
	}
	conformance.Run(t, newService)
}

// runConformanceChild runs this test binary again with the suite's test
// run (such as "A5.3/GoneWhenServerStops") on the changed Service name and
// returns its output, so the suite's verdict can be checked from it. It
// fails t if the child ran no test.
func runConformanceChild(t *testing.T, name, run string) (string, error) {
	t.Helper()
	part, test, _ := strings.Cut(run, "/")
	cmd := exec.Command(os.Args[0], "-test.run=^TestChangedServiceConformance$/^"+part+"$/^"+test+"$", "-test.v", "-test.timeout=4m")
	cmd.Env = append(os.Environ(), changedServiceEnv+"="+name)
	outb, err := procs.Run(cmd, 5*time.Minute)
	out := string(outb)
	if !strings.Contains(out, "--- ") {
		t.Fatalf("the child ran no test (%v):\n%s", err, out)
	}
	return out, err
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}
