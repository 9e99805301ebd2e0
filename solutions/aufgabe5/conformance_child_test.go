package aufgabe5_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"zablab/internal/procs"
	"zablab/mwzookeeper"
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

// runConformanceChild runs this test binary again with env=1 and -test.run
// set to run: a child test calls conformance.Run on a changed Service and
// skips itself without env, so the suite's verdict on that Service can be
// checked from its output. It fails t if the child ran no test.
func runConformanceChild(t *testing.T, run, env string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run="+run, "-test.v", "-test.timeout=4m")
	cmd.Env = append(os.Environ(), env+"=1")
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
