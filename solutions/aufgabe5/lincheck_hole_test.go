package aufgabe5_test

import (
	"fmt"
	"strings"
	"testing"

	"zablab/mwzookeeper"
)

// lossy is the reference with one change: every create, delete, setData,
// sync and getData under /lin/ is answered with ConnectionLoss at once and
// never submitted. Its history on /lin/ holds nothing but 'unknown'
// operations, so it shows nothing about linearizability: it must not earn
// A5.2/Linearizable's points.
type lossy struct{ wrapped }

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

// TestLinearizableFailsAServiceThatOnlyLosesConnections: a Service whose
// every operation on the test's keys ends in ConnectionLoss (outcome
// unknown) gives porcupine a history any model accepts; A5.2/Linearizable
// must still fail it, or it hands out 4 points for answering nothing.
func TestLinearizableFailsAServiceThatOnlyLosesConnections(t *testing.T) {
	out, err := runConformanceChild(t, "lossy", "A5.2/Linearizable")
	if err == nil || !strings.Contains(out, "--- FAIL: TestChangedServiceConformance/A5.2/Linearizable") {
		t.Fatalf("A5.2/Linearizable passed a Service that answered every operation on /lin/ with ConnectionLoss (4 points for nothing):\n%s", lastLines(out, 15))
	}
}
