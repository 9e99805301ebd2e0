// Package browser lets tests look at a page as a person would: it starts
// Debian's headless Chromium (chromium), opens a file in a tab of a given
// size, and speaks the DevTools protocol to it over a WebSocket on
// 127.0.0.1 (a small client of its own, no new module): it collects every
// uncaught exception, console.error and error log entry, evaluates
// JavaScript to count what was drawn, moves the mouse, presses keys, and
// saves PNG screenshots.
//
//	b := browser.Start(t)   // skips when Chromium is missing, unless ZABLAB_BROWSER_REQUIRED=1
//	p := b.Open(t, browser.FileURL(t, "run.html"), 1280, 800)
//	p.WaitFor(t, "the timeline", "window.timeline && window.timeline.ready", 30*time.Second)
//	if errs := p.Errors(); len(errs) > 0 { t.Fatal(errs) }
//	p.Screenshot(t, filepath.Join(dir, "run.png"))
//
// Chromium runs with --headless --no-sandbox --disable-gpu --disable-quic
// --no-first-run --disable-background-networking --disable-component-update
// --disable-sync and a fresh --user-data-dir, so it touches nothing outside
// the test and no network. CI sets ZABLAB_BROWSER_REQUIRED=1: there a
// missing Chromium fails instead of skipping. Package internal/artifacts
// says where tests put the pages and screenshots they make.
package browser
