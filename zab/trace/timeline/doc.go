// Package timeline draws a Zab run — the simulator's schedule or the
// merged traces of real peers (package zab/trace) — as one self-contained
// HTML page: a lane per peer with its role over time (LOOKING, FOLLOWING,
// LEADING with the epoch; paler while discovering and synchronizing), every
// message as an arrow from its send to its receipt (or to the ✕ where it
// was lost), proposals, commit points and deliveries with their zxids,
// crashes, restarts, partitions. Time runs downward; a row holds events
// that nothing orders among each other.
//
// A reader steps through the run one event at a time (later events fade),
// jumps to the next event of a kind, hides message types, and hovers over
// an arrow or a marker for every field. A page with a violation opens at
// it, with the events that caused it highlighted and listed.
//
// The page has its data, style and script inline and fetches nothing, so
// it opens from a file. Its script keeps every error in window.__errors
// and exposes window.timeline for tests (internal/browser opens the page
// in headless Chromium). docs/pictures.md explains how to read a page.
//
//	timeline.WriteFile("run.html", &timeline.Page{Title: "seed 7", Events: evs})
package timeline
