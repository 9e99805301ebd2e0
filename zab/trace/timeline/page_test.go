package timeline

import (
	"path/filepath"
	"testing"
	"time"

	"zablab/internal/artifacts"
	"zablab/internal/browser"
	"zablab/zab/core"
	"zablab/zab/sim"
	"zablab/zab/trace"
)

// openPage renders p, opens it in Chromium (1280×800, or the size
// given), waits for it to draw, and fails on any script error. The page
// is kept in dir.
func openPage(t *testing.T, b *browser.Browser, p *Page, dir, name string, size ...int) *browser.Page {
	t.Helper()
	path := filepath.Join(dir, name+".html")
	if err := WriteFile(path, p); err != nil {
		t.Fatal(err)
	}
	w, h := 1280, 800
	if len(size) == 2 {
		w, h = size[0], size[1]
	}
	pg := b.Open(t, browser.FileURL(t, path), w, h)
	pg.WaitFor(t, "the timeline to draw", "window.timeline && window.timeline.ready", 60*time.Second)
	assertNoErrors(t, pg, path)
	return pg
}

func assertNoErrors(t *testing.T, pg *browser.Page, path string) {
	t.Helper()
	var inPage []string
	pg.Eval(t, "window.__errors", &inPage)
	if errs := append(pg.Errors(), inPage...); len(errs) > 0 {
		t.Fatalf("%s: script errors: %q", path, errs)
	}
}

// assertDrawn compares the DOM with the trace's counts.
func assertDrawn(t *testing.T, pg *browser.Page, evs []trace.Event) {
	t.Helper()
	var got Counts
	pg.Eval(t, CountDrawnJS, &got)
	if err := Expect(evs).Compare(got); err != nil {
		t.Fatal(err)
	}
}

func TestPageDrawsWhatTheTraceHolds(t *testing.T) {
	b := browser.Start(t)
	dir := artifacts.Scratch(t)
	evs, _ := simEvents(t, sim.Options{Seed: 28, Observers: -1})
	pg := openPage(t, b, &Page{Title: "test", Events: evs}, dir, "seed28")
	assertDrawn(t, pg, evs)
	pg.Screenshot(t, filepath.Join(dir, "seed28.png"))
	t.Logf("page and screenshot in %s", dir)
}

// TestViolationPageOpensAtTheViolation: with a protocol bug switched on,
// the failing seed's page opens with the cursor on the violation, shows
// it, and highlights the events that caused it.
func TestViolationPageOpensAtTheViolation(t *testing.T) {
	b := browser.Start(t)
	dir := artifacts.Scratch(t)
	// make sim-html SEED=239 BUG=commit-without-quorum VOTERS=3 OBSERVERS=0 STEPS=120
	evs, r := simEvents(t, sim.Options{Seed: 239, Voters: 3, Observers: 0, Steps: 120,
		Bugs: sim.Bugs{Bugs: core.Bugs{CommitWithoutQuorum: true}}})
	if !r.Failed() {
		t.Fatalf("seed 239 with CommitWithoutQuorum no longer fails (%v): pick another failing seed (zab-sim --bug commit-without-quorum)", r)
	}
	v := len(evs) - 1
	if evs[v].Kind != trace.KindViolation || len(evs[v].Cause) == 0 {
		t.Fatalf("the last event is %+v, want a violation naming its causes", evs[v])
	}
	pg := openPage(t, b, &Page{Title: "zab-sim seed 239 with bug commit-without-quorum", Summary: r.String(), Events: evs,
		Notes: []string{"make sim-html SEED=239 BUG=commit-without-quorum VOTERS=3 OBSERVERS=0 STEPS=120"}}, dir, "violation", 1280, 900)
	assertDrawn(t, pg, evs)
	var got struct {
		Cursor  int  `json:"cursor"`
		Visible bool `json:"visible"`
		Causes  int  `json:"causes"`
		Why     int  `json:"why"`
	}
	pg.Eval(t, `(() => {
  const v = document.querySelector('.violation rect').getBoundingClientRect();
  const s = document.getElementById('scroll').getBoundingClientRect();
  return {cursor: window.timeline.cursor, visible: v.top >= s.top + 40 && v.bottom <= s.bottom,
    causes: document.querySelectorAll('.mk.cause, g.arrow.cause').length, why: document.querySelectorAll('#why a').length};
})()`, &got)
	ref := map[trace.Ref]int{}
	for i := range evs {
		ref[evs[i].Ref()] = i
	}
	want := causes(evs, v, ref)
	if got.Cursor != v || !got.Visible || got.Why != len(want)-1 || got.Causes < len(want)-1 {
		t.Fatalf("page opened at event %d (want the violation, %d), violation visible %v, %d elements highlighted and %d causes listed; the trace names %d causes",
			got.Cursor, v, got.Visible, got.Causes, got.Why, len(want)-1)
	}
	pg.Screenshot(t, filepath.Join(dir, "violation.png"))
	pg.Picture(t, "violation")
}

// TestOnePeerPageLoads: a run of one peer sends no message; its page must
// still draw (the script once met JSON null for the empty lists).
func TestOnePeerPageLoads(t *testing.T) {
	b := browser.Start(t)
	evs, _ := simEvents(t, sim.Options{Seed: 5, Voters: 1, Observers: 0})
	pg := openPage(t, b, &Page{Title: "one peer", Events: evs}, artifacts.Scratch(t), "onepeer")
	assertDrawn(t, pg, evs)
}
