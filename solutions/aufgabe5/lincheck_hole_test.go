package aufgabe5_test

import (
	"fmt"
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

// lossy is the reference with one change: every create, delete, setData,
// sync and getData under /lin/ is answered with ConnectionLoss at once and
// never submitted. Its history on /lin/ holds nothing but 'unknown'
// operations, so it shows nothing about linearizability: it must not earn
// A5.2/Linearizable's points.
type lossy struct{ mwzookeeper.Service }

func (l lossy) Submit(req *mwzookeeper.Request, reply func(*mwzookeeper.Response)) {
	switch req.Op {
	case mwzookeeper.OpCreate, mwzookeeper.OpDelete, mwzookeeper.OpSetData, mwzookeeper.OpSync, mwzookeeper.OpGetData:
		if strings.HasPrefix(req.Path, "/lin/") {
			reply(&mwzookeeper.Response{Err: fmt.Errorf("%w: lossy", mwzookeeper.ErrConnectionLoss)})
			return
		}
	}
	l.Service.Submit(req, reply)
}

func (l lossy) Stats() mwzookeeper.Stats {
	if r, ok := l.Service.(mwzookeeper.Reporter); ok {
		return r.Stats()
	}
	return mwzookeeper.Stats{}
}

// TestLossyConformance is the child of TestLinearizableFailsAServiceThatOnlyLosesConnections.
func TestLossyConformance(t *testing.T) {
	if os.Getenv("LINCHECK_LOSSY_CHILD") == "" {
		t.Skip("runs only as a child of TestLinearizableFailsAServiceThatOnlyLosesConnections")
	}
	conformance.Run(t, func() mwzookeeper.Service { return lossy{aufgabe5.New()} })
}

// TestLinearizableFailsAServiceThatOnlyLosesConnections: a Service whose
// every operation on the test's keys ends in ConnectionLoss (outcome
// unknown) gives porcupine a history any model accepts; A5.2/Linearizable
// must still fail it, or it hands out 4 points for answering nothing.
func TestLinearizableFailsAServiceThatOnlyLosesConnections(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestLossyConformance$/^A5.2$/^Linearizable$", "-test.v", "-test.timeout=4m")
	cmd.Env = append(os.Environ(), "LINCHECK_LOSSY_CHILD=1")
	outb, err := procs.Run(cmd, 5*time.Minute)
	out := string(outb)
	if !strings.Contains(out, "--- ") {
		t.Fatalf("the child ran no test (%v):\n%s", err, out)
	}
	if err == nil || !strings.Contains(out, "--- FAIL: TestLossyConformance/A5.2/Linearizable") {
		t.Fatalf("A5.2/Linearizable passed a Service that answered every operation on /lin/ with ConnectionLoss (4 points for nothing):\n%s", lastLines(out, 15))
	}
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}
