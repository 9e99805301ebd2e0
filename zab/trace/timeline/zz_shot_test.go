package timeline

import (
	"os"
	"testing"
	"time"

	"zablab/internal/browser"
)

func TestZZShot(t *testing.T) {
	if os.Getenv("SHOT_IN") == "" {
		t.Skip()
	}
	b := browser.Start(t)
	pg := b.Open(t, browser.FileURL(t, os.Getenv("SHOT_IN")), 1280, 900)
	pg.WaitFor(t, "ready", "window.timeline && window.timeline.ready", 30*time.Second)
	if js := os.Getenv("SHOT_JS"); js != "" {
		var out any
		pg.Eval(t, js, &out)
		t.Log(out)
	}
	t.Log(pg.Errors())
	pg.Screenshot(t, os.Getenv("SHOT_OUT"))
}
