package timeline

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"zablab/internal/artifacts"
	"zablab/internal/browser"
	"zablab/zab/sim"
	"zablab/zab/trace"
)

// calm is a quiet schedule: three voters elect a leader and commit a
// message (make sim-html SEED=3 VOTERS=3 OBSERVERS=0 STEPS=1).
var calm = sim.Options{Seed: 3, Voters: 3, Observers: 0, Steps: 1}

// TestPageControls drives the page with keys, buttons and the mouse, as
// a reader does: stepping fades what has not happened yet, jumping finds
// the next event of a kind, a filter hides a message type, hovering an
// arrow shows the message's fields, clicking a marker steps onto it.
func TestPageControls(t *testing.T) {
	b := browser.Start(t)
	evs, r := simEvents(t, calm)
	if r.Failed() {
		t.Fatal(r)
	}
	pg := openPage(t, b, &Page{Title: "zab-sim seed 3", Summary: r.String(), Events: evs}, artifacts.Scratch(t), "calm")
	cursor := func() int {
		var c int
		pg.Eval(t, "window.timeline.cursor", &c)
		return c
	}
	if c := cursor(); c != len(evs)-1 {
		t.Fatalf("a page without a violation opens at event %d, want the last, %d", c, len(evs)-1)
	}
	pg.Key(t, "Home", false)
	pg.Key(t, "ArrowRight", false)
	pg.Key(t, "ArrowRight", false)
	pg.Key(t, "ArrowLeft", false)
	if c := cursor(); c != 1 {
		t.Fatalf("Home, →, →, ← put the cursor on event %d, want 1", c)
	}
	var future, later int
	pg.Eval(t, `document.querySelectorAll('#marks .mk.future').length`, &future)
	pg.Eval(t, `[...document.querySelectorAll('#marks .mk')].filter(m => +m.dataset.i > 1).length`, &later)
	if future != later || later == 0 {
		t.Fatalf("at event 1, %d markers are faded; %d come later", future, later)
	}

	// Jump to the next role change with the select and the ▶▶ button.
	pg.Eval(t, `(() => { const s = document.getElementById('kind'); s.value = 'state'; s.dispatchEvent(new Event('change')); })()`, nil)
	click(t, pg, "#knext")
	want := -1
	for i := 2; i < len(evs) && want < 0; i++ {
		if evs[i].Kind == trace.KindState {
			want = i
		}
	}
	if c := cursor(); c != want {
		t.Fatalf("▶▶ with 'role change' went to event %d, want the next state change, %d", c, want)
	}

	// Hide PING: every PING arrow disappears (received, lost, or still in
	// flight at the end), the others stay.
	pings, arrived := 0, map[uint64]bool{}
	for _, e := range evs {
		if e.Msg != nil && e.Msg.Type == "PING" && e.Kind != trace.KindSend {
			pings++
			arrived[e.Msg.ID] = true
		}
	}
	for _, e := range evs {
		if e.Msg != nil && e.Msg.Type == "PING" && e.Kind == trace.KindSend && !arrived[e.Msg.ID] {
			pings++
		}
	}
	before := visibleArrows(t, pg)
	click(t, pg, `#filters input[data-type="PING"]`)
	if after := visibleArrows(t, pg); pings == 0 || before-after != pings {
		t.Fatalf("hiding PING: %d visible arrows before, %d after; the trace has %d PING arrows", before, after, pings)
	}

	// Hover the first PROPOSE arrow: the tooltip names its fields.
	var xy []float64
	pg.Eval(t, `(() => { const g = document.querySelector('#arrows g.t-PROPOSE.k-recv');
  g.scrollIntoView({block: 'center'}); const r = g.querySelector('line.hit').getBoundingClientRect();
  const l = g.querySelector('line.hit'); const sv = l.ownerSVGElement.getBoundingClientRect();
  return [sv.left + (+l.getAttribute('x1') + +l.getAttribute('x2')) / 2, sv.top + (+l.getAttribute('y1') + +l.getAttribute('y2')) / 2]; })()`, &xy)
	pg.Mouse(t, xy[0], xy[1])
	var tip struct {
		Hidden bool
		Text   string
	}
	pg.Eval(t, `({hidden: document.getElementById('tip').hidden, text: document.getElementById('tip').textContent})`, &tip)
	for _, w := range []string{"sends PROPOSE", "epoch", "entries", "receives PROPOSE"} {
		if tip.Hidden || !strings.Contains(tip.Text, w) {
			t.Fatalf("hovering a PROPOSE arrow at %v shows %q (hidden %v); want %q in it", xy, tip.Text, tip.Hidden, w)
		}
	}

	// Click the commit marker: the cursor steps onto it.
	commit := -1
	pg.Eval(t, `(() => { const m = document.querySelector('#marks .mk-commit'); m.scrollIntoView({block: 'center'});
  return +m.dataset.i; })()`, &commit)
	pg.Eval(t, fmt.Sprintf(`(() => { const r = document.querySelector('#marks .mk-commit .shape').getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2]; })()`), &xy)
	pg.Click(t, xy[0], xy[1])
	if c := cursor(); c != commit || commit < 0 {
		t.Fatalf("clicking the commit marker (event %d) put the cursor on %d", commit, c)
	}
	assertNoErrors(t, pg, "calm.html")
}

// TestPictureOfAnElection saves the docs' picture of a calm schedule:
// the election and the first commit.
func TestPictureOfAnElection(t *testing.T) {
	b := browser.Start(t)
	evs, r := simEvents(t, calm)
	dir := artifacts.Scratch(t)
	pg := openPage(t, b, &Page{Title: "zab-sim seed 3", Summary: r.String(), Events: evs,
		Notes: []string{"make sim-html SEED=3 VOTERS=3 OBSERVERS=0 STEPS=1"}}, dir, "election", 1280, 1040)
	assertDrawn(t, pg, evs)
	at := -1
	for i, e := range evs {
		if e.Kind == trace.KindDeliver && at < 0 {
			at = i // the leader's commit of the first message
		}
	}
	pg.Eval(t, fmt.Sprintf("window.timeline.setCursor(%d); document.getElementById('scroll').scrollTop = 0", at), nil)
	pg.Screenshot(t, filepath.Join(dir, "election.png"))
	pg.Picture(t, "election")
}

func click(t *testing.T, pg *browser.Page, selector string) {
	t.Helper()
	var xy []float64
	pg.Eval(t, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2]; })()`, selector), &xy)
	pg.Click(t, xy[0], xy[1])
}

func visibleArrows(t *testing.T, pg *browser.Page) int {
	var n int
	pg.Eval(t, `[...document.querySelectorAll('#arrows > g.arrow')].filter(g => getComputedStyle(g).display !== 'none').length`, &n)
	return n
}
