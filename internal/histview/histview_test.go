package histview

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"zablab/internal/artifacts"
	"zablab/internal/browser"
)

// register is a single integer register: write(v) and read() -> v.
var register = porcupine.Model{
	Init: func() any { return 0 },
	Step: func(state, input, output any) (bool, any) {
		in := input.([2]int) // {0: write, 1: read}, value
		if in[0] == 0 {
			return true, in[1]
		}
		return output.(int) == state.(int), state
	},
	DescribeOperation: func(input, output any) string {
		in := input.([2]int)
		if in[0] == 0 {
			return fmt.Sprintf("write(%d)", in[1])
		}
		return fmt.Sprintf("read() -> %d", output.(int))
	},
	DescribeState: func(state any) string { return fmt.Sprint(state) },
}

// staleRead is deliberately not linearizable: after write(2) returned,
// another client still reads 1. Between the writes the leader's replica
// was killed; the others looked for a leader; it came back later.
func staleRead() ([]porcupine.Operation, []Fault) {
	ms := int64(time.Millisecond)
	ops := []porcupine.Operation{
		{ClientId: 0, Input: [2]int{0, 1}, Call: 0, Output: 0, Return: 10 * ms},
		{ClientId: 1, Input: [2]int{0, 2}, Call: 20 * ms, Output: 0, Return: 40 * ms},
		{ClientId: 2, Input: [2]int{1, 0}, Call: 50 * ms, Output: 1, Return: 60 * ms},
		{ClientId: 0, Input: [2]int{1, 0}, Call: 55 * ms, Output: 2, Return: 70 * ms},
	}
	faults := []Fault{
		{Replica: 3, Kind: Kill, Start: 12 * ms, Details: "kill -9 of the leader's replica"},
		{Replica: 1, Kind: Looking, Start: 13 * ms, End: 30 * ms, Details: "no leader: clients refused"},
		{Replica: 2, Kind: Looking, Start: 13 * ms, End: 28 * ms},
		{Replica: 3, Kind: Down, Start: 12 * ms, End: 45 * ms},
		{Replica: 3, Kind: Restart, Start: 45 * ms},
	}
	return ops, faults
}

// TestPictureOfAFailingHistory: porcupine rejects the stale read, and the
// page shows every operation and every fault, with no script error.
func TestPictureOfAFailingHistory(t *testing.T) {
	ops, faults := staleRead()
	res, info := porcupine.CheckOperationsVerbose(register, ops, 0)
	if res != porcupine.Illegal {
		t.Fatalf("porcupine says %s about a stale read; the test history must be illegal", res)
	}
	b := browser.Start(t)
	path := filepath.Join(artifacts.Scratch(t), "history.html")
	err := WriteFile(path, Page{Title: "not linearizable: a stale read after a leader change",
		Notes: []string{"a hand-made history (internal/histview's test)"}, Model: register, Info: info, Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	pg := b.Open(t, browser.FileURL(t, path), 1060, 430)
	pg.WaitFor(t, "the history to draw", "window.histview && window.histview.ready", 30*time.Second)
	var drawn struct {
		Operations, Faults int
		Errors             []string
		Title              string
	}
	pg.Eval(t, `({operations: window.histview.operations, faults: window.histview.faults, errors: window.__errors, title: document.title})`, &drawn)
	if errs := append(pg.Errors(), drawn.Errors...); len(errs) > 0 {
		t.Fatalf("%s: script errors: %q", path, errs)
	}
	if drawn.Operations != len(ops) || drawn.Faults != len(faults) || drawn.Title == "Porcupine" {
		t.Fatalf("drawn %d operations and %d faults (title %q); the history has %d and %d",
			drawn.Operations, drawn.Faults, drawn.Title, len(ops), len(faults))
	}
	// porcupine's "jump to first error" shows the illegal point.
	pg.Eval(t, `document.getElementById('jump-link').dispatchEvent(new MouseEvent('click', {bubbles: true}))`, nil)
	pg.Screenshot(t, filepath.Join(filepath.Dir(path), "history.png"))
	pg.Picture(t, "failing-history")
}

func TestAnnotationsOnePerFaultAndRowPerReplica(t *testing.T) {
	_, faults := staleRead()
	as := Annotations(faults)
	if len(as) != len(faults) {
		t.Fatalf("%d annotations for %d faults", len(as), len(faults))
	}
	for i, a := range as {
		if i > 0 && a.Start < as[i-1].Start {
			t.Fatalf("annotations out of time order: %v", as)
		}
		point := a.Description == string(Kill) || a.Description == string(Restart)
		if a.Tag == "" || a.BackgroundColor == "" || (point && a.End != a.Start) || (!point && a.End <= a.Start) {
			t.Fatalf("annotation %+v", a)
		}
	}
}
