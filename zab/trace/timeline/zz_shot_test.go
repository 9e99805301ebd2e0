package timeline

import (
	"os"
	"testing"
	"time"

	"zablab/internal/browser"
)

// TestZZShot is a tool for a person, not a check of the suite: it opens
// the page SHOT_IN in headless Chromium, runs SHOT_JS if given (to step or
// scroll it), saves a screenshot to SHOT_OUT, and fails on any script
// error of the page.
//
//	SHOT_IN=data/sim/seed7.html SHOT_OUT=/tmp/seed7.png go test -run TestZZShot ./zab/trace/timeline
func TestZZShot(t *testing.T) {
	if os.Getenv("SHOT_IN") == "" || os.Getenv("SHOT_OUT") == "" {
		t.Skip("a screenshot tool: set SHOT_IN (a page) and SHOT_OUT (a PNG file)")
	}
	b := browser.Start(t)
	pg := b.Open(t, browser.FileURL(t, os.Getenv("SHOT_IN")), 1280, 900)
	pg.WaitFor(t, "ready", "window.timeline && window.timeline.ready", 30*time.Second)
	if js := os.Getenv("SHOT_JS"); js != "" {
		var out any
		pg.Eval(t, js, &out)
		t.Logf("SHOT_JS returned %v", out)
	}
	if errs := pg.Errors(); len(errs) > 0 {
		t.Errorf("script errors on %s: %q", os.Getenv("SHOT_IN"), errs)
	}
	pg.Screenshot(t, os.Getenv("SHOT_OUT"))
}
