package timeline

import (
	"fmt"
	"testing"

	"zablab/internal/artifacts"
	"zablab/internal/browser"
	"zablab/zab/sim"
	"zablab/zab/trace"
)

// leaderCrash finds, in a schedule, the crash of a leader in broadcast
// and the first leader of a newer epoch after it (another peer, or the
// same one restarted): the crash's index, the new leader's state event,
// and the epochs.
func leaderCrash(evs []trace.Event) (crash, next int, old, epoch uint32) {
	leading := map[uint64]uint32{} // peer → epoch it leads in broadcast
	crash, next = -1, -1
	for i, e := range evs {
		switch {
		case e.Kind == trace.KindState && e.Role == "LEADING" && e.Phase == "broadcast":
			if crash >= 0 && e.Epoch > old {
				return crash, i, old, e.Epoch
			}
			leading[e.Peer] = e.Epoch
		case e.Kind == trace.KindState:
			delete(leading, e.Peer)
		case e.Kind == trace.KindCrash && crash < 0:
			if ep, ok := leading[e.Peer]; ok {
				crash, old = i, ep
			}
			delete(leading, e.Peer)
		}
	}
	return -1, -1, 0, 0
}

// TestSimPageShowsALeaderCrash: for the first schedule of three voters
// (make sim-html SEED=<n> VOTERS=3) in which a leader crashes, the page
// draws the crash, then a lane leading the newer epoch, and the
// recovery's NEWEPOCH and NEWLEADER arrows after the crash.
func TestSimPageShowsALeaderCrash(t *testing.T) {
	var evs []trace.Event
	var crash, next int
	var old, epoch uint32
	seed := uint64(1)
	for ; seed <= 200; seed++ {
		evs, _ = simEvents(t, sim.Options{Seed: seed, Voters: 3, Observers: -1})
		if crash, next, old, epoch = leaderCrash(evs); crash >= 0 {
			break
		}
	}
	if crash < 0 {
		t.Fatal("no schedule of seeds 1..200 crashes a leader and elects another")
	}
	b := browser.Start(t)
	pg := openPage(t, b, &Page{Title: fmt.Sprintf("zab-sim seed %d", seed), Events: evs}, artifacts.Scratch(t), "crash")
	assertDrawn(t, pg, evs)
	var got struct {
		CrashY   float64 `json:"crashY"`
		LeadY    float64 `json:"leadY"`
		Recovery []string
	}
	pg.Eval(t, fmt.Sprintf(`(() => {
  const y = i => { const m = document.querySelector('#marks [data-i="' + i + '"]');
    return m ? m.querySelector('.shape').getBBox().y : -1; };
  const lead = [...document.querySelectorAll('.bandlabel.LEADING')].filter(t => t.textContent === %q);
  const crashY = y(%d);
  const rec = [...document.querySelectorAll('#arrows g.k-recv')].filter(g => {
    const l = g.querySelector('line'); return +l.getAttribute('y1') > crashY; }).map(g => g.classList[1].slice(2));
  return {crashY: crashY, leadY: lead.length ? +lead[0].getAttribute('y') : -1, recovery: [...new Set(rec)]};
})()`, roleLabel(&evs[next]), crash), &got)
	has := func(t string) bool {
		for _, r := range got.Recovery {
			if r == t {
				return true
			}
		}
		return false
	}
	if got.CrashY < 0 || got.LeadY <= got.CrashY || !has("NEWEPOCH") || !has("NEWLEADER") {
		t.Fatalf("seed %d: leader of epoch %d crashes at y=%.0f; %q drawn at y=%.0f; message types received after the crash: %v",
			seed, old, got.CrashY, roleLabel(&evs[next]), got.LeadY, got.Recovery)
	}
	t.Logf("seed %d: the leader of epoch %d crashes (event %d); epoch %d leads from event %d", seed, old, crash, epoch, next)
}
