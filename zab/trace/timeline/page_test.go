package timeline

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"zablab/internal/artifacts"
	"zablab/internal/browser"
	"zablab/zab/core"
	"zablab/zab/sim"
	"zablab/zab/trace"
)

// expected counts what a page of evs must draw, computed from the trace
// alone: one lane per peer (and one for the world), one arrow per copy of
// a message that arrived, was lost, or was never seen again, and one
// marker per event that is not a send, receipt or drop.
type expected struct {
	Lanes   int            `json:"lanes"`
	Arrows  int            `json:"arrows"`
	Markers map[string]int `json:"markers"`
	Bands   map[string]int `json:"bands"` // role label → stretches, e.g. "LEADING e=2": 1
}

func expect(evs []trace.Event) expected {
	x := expected{Markers: map[string]int{}, Bands: map[string]int{}}
	peers := map[uint64]bool{}
	seen := map[uint64]bool{} // message IDs that reached a receipt or drop
	role := map[uint64]string{}
	for i := range evs {
		e := &evs[i]
		peers[e.Peer] = true
		switch e.Kind {
		case trace.KindSend:
			continue
		case trace.KindRecv, trace.KindDrop:
			if e.Msg.Type == "PEERLOST" {
				x.Markers["peerlost"]++
			} else {
				x.Arrows++ // a receipt, a drop, a duplicate, or an orphan: one arrow each
			}
			seen[e.Msg.ID] = true
			continue
		case trace.KindState:
			role[e.Peer] = e.Role
			x.Bands[roleLabel(e)]++
		case trace.KindCrash, trace.KindStop:
			role[e.Peer] = ""
		}
		k := string(e.Kind)
		if e.Kind == trace.KindAppend && role[e.Peer] == "LEADING" {
			k = "proposal"
		}
		if e.Kind == trace.KindDeliver && role[e.Peer] == "LEADING" {
			k = "commit"
		}
		x.Markers[k]++
	}
	for i := range evs {
		if e := &evs[i]; e.Kind == trace.KindSend && !seen[e.Msg.ID] {
			x.Arrows++ // never arrived, never dropped: lost in the trace
		}
	}
	x.Lanes = len(peers)
	return x
}

// drawnJS counts what the page drew, from its DOM.
const drawnJS = `(() => {
  const m = {}, b = {};
  document.querySelectorAll('#marks .mk').forEach(g => {
    const k = [...g.classList].find(c => c.startsWith('mk-')).slice(3);
    m[k] = (m[k] || 0) + 1;
  });
  document.querySelectorAll('.bandlabel').forEach(t => { b[t.textContent] = (b[t.textContent] || 0) + 1; });
  return {lanes: document.querySelectorAll('.lane').length, arrows: document.querySelectorAll('#arrows > g.arrow').length,
    markers: m, bands: b};
})()`

// openPage renders p, opens it in Chromium, waits for it to draw, and
// fails on any script error. The page is kept in dir.
func openPage(t *testing.T, b *browser.Browser, p *Page, dir, name string) *browser.Page {
	t.Helper()
	path := filepath.Join(dir, name+".html")
	if err := WriteFile(path, p); err != nil {
		t.Fatal(err)
	}
	pg := b.Open(t, browser.FileURL(t, path), 1280, 800)
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
	want := expect(evs)
	var got expected
	pg.Eval(t, drawnJS, &got)
	for k, n := range want.Bands { // the page also labels starts and downs
		if got.Bands[k] != n {
			t.Errorf("band %q drawn %d times, the trace has it %d times", k, got.Bands[k], n)
		}
	}
	got.Bands, want.Bands = nil, nil
	w, _ := json.Marshal(want)
	g, _ := json.Marshal(got)
	if string(w) != string(g) {
		t.Fatalf("drawn %s\ntrace  %s", g, w)
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
	evs, r := simEvents(t, sim.Options{Seed: 28, Observers: -1, Bugs: sim.Bugs{Bugs: core.Bugs{CommitWithoutQuorum: true}}})
	if !r.Failed() {
		t.Fatalf("seed 28 with CommitWithoutQuorum no longer fails (%v): pick another failing seed (zab-sim --bug commit-without-quorum)", r)
	}
	v := len(evs) - 1
	if evs[v].Kind != trace.KindViolation || len(evs[v].Cause) == 0 {
		t.Fatalf("the last event is %+v, want a violation naming its causes", evs[v])
	}
	pg := openPage(t, b, &Page{Title: "bug", Summary: r.String(), Events: evs}, dir, "violation")
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
}
