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
	checkTitleShown(t, pg)
	pg.Screenshot(t, filepath.Join(filepath.Dir(path), "history.png"))
	pg.Picture(t, "failing-history")
}

// settled is true once the page has not scrolled for five looks 50 ms
// apart: the jump scrolls smoothly, and may not scroll at all.
const settled = `(function () {
  window.__settled = false;
  let last = '', same = 0;
  const id = setInterval(function () {
    const at = scrollX + ',' + scrollY;
    if (at !== last) { last = at; same = 0; return; }
    if (++same >= 5) { clearInterval(id); window.__settled = true; }
  }, 50);
})()`

// checkTitleShown: once the jump's scroll has settled, the page's title
// is on screen and nothing (porcupine's legend above all) covers it, and
// the title bar covers no operation either.
func checkTitleShown(t *testing.T, pg *browser.Page) {
	t.Helper()
	pg.Eval(t, settled, nil)
	pg.WaitFor(t, "the jump's scroll to settle", "window.__settled", 10*time.Second)
	var seen struct {
		Top, Bottom float64
		Covered     string
	}
	pg.Eval(t, `(function () {
  const h = document.querySelector('#zablab-head > div'), r = h.getBoundingClientRect();
  let covered = '';
  for (const x of [r.left + 2, r.left + r.width / 4, r.left + r.width / 2]) {
    for (const y of [r.top + 2, r.top + r.height / 2, r.bottom - 2]) {
      const e = document.elementFromPoint(x, y);
      if (e !== h && !h.contains(e)) covered = e ? (e.id || e.tagName) : 'off screen';
    }
  }
  const bar = document.getElementById('zablab-top');
  for (const op of document.querySelectorAll('rect.history-rect')) {
    const o = op.getBoundingClientRect(), e = document.elementFromPoint(o.left + o.width / 2, o.top + o.height / 2);
    if (bar && bar.contains(e)) covered = 'the title bar, over an operation';
  }
  return {top: r.top, bottom: r.bottom, covered: covered};
})()`, &seen)
	if seen.Top < 0 || seen.Covered != "" {
		t.Fatalf("after the jump the title is at %.0f..%.0f px, covered by %q", seen.Top, seen.Bottom, seen.Covered)
	}
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
