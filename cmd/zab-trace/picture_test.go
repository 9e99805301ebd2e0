package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"zablab/internal/artifacts"
	"zablab/internal/browser"
	"zablab/zab/trace"
	"zablab/zab/trace/timeline"
)

// TestPictureOfARealLeaderKill is make run TRACE=1 with a kill -9 of the
// leader and a restart, from real processes: the merged page shows the
// kill, the new leader's epoch and the recovery messages, and draws every
// receipt below its send.
func TestPictureOfARealLeaderKill(t *testing.T) {
	if testing.Short() {
		t.Skip("three real peers, a kill and a restart: not in -short")
	}
	b := browser.Start(t) // first: skip before starting processes when Chromium is missing
	traces, leader := runKillRestart(t)
	files, _ := filepath.Glob(filepath.Join(traces, "peer*.trace"))
	slices.Sort(files)
	out := artifacts.Scratch(t)
	html, stdout := drawTraces(t, files, filepath.Join(out, "run.html"))
	evs := merged(t, files)
	crash := checkRecovery(t, evs, uint64(leader))
	pg := openChecked(t, b, html, evs)
	// The picture: the kill near the top, the recovery below it.
	pg.Eval(t, fmt.Sprintf(`(() => { window.timeline.setCursor(%d);
  const m = document.querySelector('#marks [data-i="%d"] .shape');
  document.getElementById('scroll').scrollTop = m.getBBox().y - 90; })()`, crash+40, crash), nil)
	pg.Screenshot(t, filepath.Join(out, "leader-kill.png"))
	pg.Picture(t, "leader-kill")
	t.Logf("%s; page in %s", stdout, html)

	// The same run as if the peers' clocks were seconds apart: the order
	// comes from the messages, so every receipt is still drawn below its
	// send, although its peer's clock may say it came first.
	skewed := skew(t, files, out, []int64{4e9, -4e9, 1e9})
	html, _ = drawTraces(t, skewed, filepath.Join(out, "skewed.html"))
	openChecked(t, b, html, merged(t, skewed))
}

func drawTraces(t *testing.T, files []string, html string) (string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"--html", html}, files...), &stdout, &stderr); code != 0 || len(files) != 3 {
		t.Fatalf("zab-trace on %v: exit %d\n%s%s", files, code, stdout.String(), stderr.String())
	}
	return html, stdout.String()
}

// skew writes copies of the trace files whose clocks are off by the
// given nanoseconds, one offset per file.
func skew(t *testing.T, files []string, dir string, by []int64) []string {
	t.Helper()
	var out []string
	for i, f := range files {
		evs, err := trace.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var b []byte
		for j := range evs {
			evs[j].Time += by[i]
			b = trace.AppendJSON(b, &evs[j])
		}
		path := filepath.Join(dir, "skewed-"+filepath.Base(f))
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, path)
	}
	return out
}

// openChecked opens a page of evs and checks it: no script error, what it
// draws matches the trace, and every received message is drawn with its
// receipt below its send.
func openChecked(t *testing.T, b *browser.Browser, html string, evs []trace.Event) *browser.Page {
	t.Helper()
	pg := b.Open(t, browser.FileURL(t, html), 1280, 900)
	pg.WaitFor(t, "the timeline to draw", "window.timeline && window.timeline.ready", 60*time.Second)
	var inPage []string
	pg.Eval(t, "window.__errors", &inPage)
	if errs := append(pg.Errors(), inPage...); len(errs) > 0 {
		t.Fatalf("%s: script errors: %q", html, errs)
	}
	var drawn timeline.Counts
	pg.Eval(t, timeline.CountDrawnJS, &drawn)
	if err := timeline.Expect(evs).Compare(drawn); err != nil {
		t.Fatal(err)
	}
	var order struct{ Received, Upward int }
	pg.Eval(t, `(() => { const ls = [...document.querySelectorAll('#arrows g.k-recv > line.arrow')];
  return {received: ls.length, upward: ls.filter(l => +l.getAttribute('y2') <= +l.getAttribute('y1')).length}; })()`, &order)
	matched := 0
	for _, e := range evs {
		if e.Kind == trace.KindRecv && e.Msg.ID != 0 {
			matched++
		}
	}
	if order.Upward != 0 || order.Received != matched || matched == 0 {
		t.Fatalf("%s: %d of %d received messages drawn with the receipt not below the send; the traces matched %d",
			html, order.Upward, order.Received, matched)
	}
	return pg
}

func merged(t *testing.T, files []string) []trace.Event {
	t.Helper()
	var all [][]trace.Event
	for _, f := range files {
		evs, err := trace.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, evs)
	}
	evs, st := trace.Merge(all)
	if st.Crashes != 1 || st.Broken != 0 {
		t.Fatalf("merge: %+v; want the one kill inferred and every match consistent", st)
	}
	return evs
}

// checkRecovery finds the kill of leader in the merged trace and checks
// what must follow it: another peer leads a newer epoch after NEWEPOCH
// and NEWLEADER, and the old leader starts again and follows. It returns
// the kill's index.
func checkRecovery(t *testing.T, evs []trace.Event, leader uint64) int {
	t.Helper()
	crash, oldEpoch := -1, uint32(0)
	for i, e := range evs {
		if e.Peer == leader && e.Kind == trace.KindState && e.Role == "LEADING" {
			oldEpoch = e.Epoch
		}
		if e.Kind == trace.KindCrash {
			if e.Peer != leader {
				t.Fatalf("a kill of peer %d inferred; the test killed %d", e.Peer, leader)
			}
			crash = i
		}
	}
	seen := map[string]bool{}
	for _, e := range evs[crash+1:] {
		switch {
		case e.Kind == trace.KindSend && e.Peer != leader:
			seen[e.Msg.Type] = true
		case e.Kind == trace.KindState && e.Role == "LEADING" && e.Phase == "broadcast" && e.Epoch > oldEpoch:
			seen["new leader"] = true
		case e.Kind == trace.KindStart && e.Peer == leader:
			seen["restart"] = true
		case e.Kind == trace.KindState && e.Peer == leader && e.Role == "FOLLOWING" && seen["restart"]:
			seen["old leader follows"] = true
		}
	}
	for _, want := range []string{"NEWEPOCH", "NEWLEADER", "COMMITLD", "new leader", "restart", "old leader follows"} {
		if crash < 0 || !seen[want] {
			t.Fatalf("after the kill of leader %d (event %d, epoch %d) the trace lacks %q: has %v", leader, crash, oldEpoch, want, seen)
		}
	}
	return crash
}
