package lincheck

import (
	"errors"
	"fmt"
	"testing"

	"github.com/anishathalye/porcupine"

	"zablab/internal/artifacts"
)

// TestVerifyRejectsAReadOfDataNoOneWrote: a read returns data that no
// call ever wrote. No order of the calls explains that, whatever the
// writes whose outcome is unknown did; yet with enough of them porcupine
// does not finish within checkLimit. Verify passed such a history, so a
// Service that answered its writes with ConnectionLoss and its reads with
// anything bought itself a pass; it now fails it as undecided.
func TestVerifyRejectsAReadOfDataNoOneWrote(t *testing.T) {
	t.Setenv(artifacts.Env, t.TempDir())
	const unknownWrites = 26
	ops := []porcupine.Operation{
		Op(0, 0, 1, Input{Kind: Create, Key: "/lin/a", Data: "c0-1", Version: -1}, Output{}),
	}
	for i := 1; i <= unknownWrites; i++ {
		ops = append(ops, Op(i, 2, Open, Input{Kind: Set, Key: "/lin/a", Data: fmt.Sprintf("c%d-1", i), Version: -1}, Output{Result: Unknown}))
	}
	ops = append(ops, Op(99, 100, 101, Input{Kind: Get, Key: "/lin/a"}, Output{Data: "never written", Version: 1}))
	h := NewHistory()
	for _, op := range ops {
		h.Add(op)
	}
	err := Verify(t, h.Closed(), nil, Page{Title: "read of data no one wrote"})
	if !errors.Is(err, ErrNotLinearizable) && !errors.Is(err, ErrUndecided) {
		t.Fatalf("Verify of a history whose read saw data no call wrote: %v; want ErrNotLinearizable or ErrUndecided", err)
	}
}
