package timeline

import (
	"encoding/json"
	"fmt"

	"zablab/zab/trace"
)

// Counts is what a page shows of a trace: lanes, arrows, markers per kind
// and role stretches per label. Tests compare Expect's counts, made from
// the trace alone, with what Chromium drew (CountDrawnJS).
type Counts struct {
	Lanes   int            `json:"lanes"`
	Arrows  int            `json:"arrows"`
	Markers map[string]int `json:"markers"`
	Bands   map[string]int `json:"bands"` // role label → stretches, e.g. "LEADING e=2": 1
}

// Expect counts what a page of evs must draw: one lane per peer (and one
// for the world), one arrow per copy of a message that arrived, was lost,
// or was never seen again, one marker per event that is not a send, a
// receipt or a drop, and one labelled stretch per role change.
func Expect(evs []trace.Event) Counts {
	x := Counts{Markers: map[string]int{}, Bands: map[string]int{}}
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

// Compare reports the first difference between what the trace holds (x)
// and what was drawn; the page may label more stretches (starts, downs).
func (x Counts) Compare(drawn Counts) error {
	for k, n := range x.Bands {
		if drawn.Bands[k] != n {
			return fmt.Errorf("role %q drawn %d times, the trace has it %d times", k, drawn.Bands[k], n)
		}
	}
	x.Bands, drawn.Bands = nil, nil
	w, _ := json.Marshal(x)
	g, _ := json.Marshal(drawn)
	if string(w) != string(g) {
		return fmt.Errorf("drawn %s\ntrace  %s", g, w)
	}
	return nil
}

// CountDrawnJS is a JavaScript expression that counts, in a page's DOM,
// what Expect counts in its trace.
const CountDrawnJS = `(() => {
  const m = {}, b = {};
  document.querySelectorAll('#marks .mk').forEach(g => {
    const k = [...g.classList].find(c => c.startsWith('mk-')).slice(3);
    m[k] = (m[k] || 0) + 1;
  });
  document.querySelectorAll('.bandlabel').forEach(t => { b[t.textContent] = (b[t.textContent] || 0) + 1; });
  return {lanes: document.querySelectorAll('.lane').length, arrows: document.querySelectorAll('#arrows > g.arrow').length,
    markers: m, bands: b};
})()`
