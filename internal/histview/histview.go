package histview

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/anishathalye/porcupine"
)

// Fault is something that happened to a replica while the history ran.
type Fault struct {
	Replica int    // 1-based
	Kind    Kind   // what happened
	Start   int64  // on the operations' clock
	End     int64  // the end of a period; ignored for a point (kill, restart)
	Details string // shown when hovering
}

// Kind names a fault; each has its colour on the page.
type Kind string

// The kinds of faults a test reports.
const (
	Kill    Kind = "killed"    // the replica's process died (a point)
	Stop    Kind = "stopped"   // the replica was stopped (a point)
	Restart Kind = "restarted" // the replica was started again (a point)
	Looking Kind = "LOOKING"   // the replica served no clients: no leader (a period)
	Down    Kind = "down"      // the replica was not running (a period)
	Other   Kind = "fault"     // anything else
)

// tagFmt names the row of a replica's faults.
const tagFmt = "replica %d"

var colours = map[Kind]string{Kill: "#ef9a9a", Stop: "#ef9a9a", Restart: "#a5d6a7", Looking: "#ffe082", Down: "#e0e0e0", Other: "#b39ddb"}

// Page is one failing history to draw.
type Page struct {
	Title  string
	Notes  []string // seed, how to replay, what the check said
	Model  porcupine.Model
	Info   porcupine.LinearizationInfo
	Faults []Fault
}

// Annotations turns the faults into porcupine annotations: one row per
// replica ("replica 2"), coloured by kind, in time order.
func Annotations(faults []Fault) []porcupine.Annotation {
	fs := append([]Fault(nil), faults...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Start < fs[j].Start })
	var out []porcupine.Annotation
	for _, f := range fs {
		a := porcupine.Annotation{Tag: fmt.Sprintf(tagFmt, f.Replica), Start: f.Start, End: f.Start,
			Description: string(f.Kind), Details: f.Details, BackgroundColor: colours[f.Kind], TextColor: "#222"}
		if f.Kind == Looking || f.Kind == Down || f.Kind == Other {
			a.End = max(f.End, f.Start)
		}
		if a.BackgroundColor == "" {
			a.BackgroundColor = colours[Other]
		}
		out = append(out, a)
	}
	return out
}

// Render writes p's page: porcupine's visualization with the faults, a
// heading, the notes and a legend.
func Render(w io.Writer, p Page) error {
	info := p.Info
	info.AddAnnotations(Annotations(p.Faults))
	var b bytes.Buffer
	if err := porcupine.Visualize(p.Model, info, &b); err != nil {
		return fmt.Errorf("histview: %w", err)
	}
	page := b.String()
	for _, cut := range []struct{ at, insert string }{
		{"<head>", "<head>\n" + errorsScript},
		{"</head>", style + "\n</head>"},
		{`<div id="legend">`, `<div id="zablab-top">` + heading(p) + "\n" + `<div id="legend">`},
		{`<div id="canvas">`, "</div>\n" + `<div id="canvas">`},
		{"</body>", selfCheck + "\n</body>"},
	} {
		if !strings.Contains(page, cut.at) {
			return fmt.Errorf("histview: porcupine's page has no %s to insert at", cut.at)
		}
		page = strings.Replace(page, cut.at, cut.insert, 1)
	}
	page = strings.Replace(page, "<title>Porcupine</title>", "<title>"+html.EscapeString(p.Title)+"</title>", 1)
	_, err := io.WriteString(w, page)
	return err
}

// WriteFile renders p into the file path.
func WriteFile(path string, p Page) error {
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("histview: %w", err)
	}
	return nil
}

// style makes the heading and porcupine's legend one opaque bar that
// stays on top. Porcupine fixes its legend, half transparent, at the top
// of the window, and its "jump to first error" scrolls the error point to
// the middle: a heading in the flow below the legend then slid under it,
// half hidden. The bar also keeps the faults visible while an operation is
// selected (porcupine fades what is not part of the selected
// linearization).
const style = `<style>
#zablab-top { position: sticky; top: 0; left: 0; z-index: 2; background: #fff; padding: 8px 10px 4px; }
#zablab-head { font: 13px/1.4 system-ui, sans-serif; }
#legend { position: static; margin-top: 6px; padding: 0; background: none; backdrop-filter: none; }
#canvas { margin-top: 8px; }
g.hidden:has(.client-annotation-rect) { opacity: 1; }
#legend svg { overflow: visible; }
</style>`

const errorsScript = `<script>
window.__errors = [];
window.addEventListener('error', function (e) { window.__errors.push(String(e.message || e)); });
</script>`

// selfCheck runs after porcupine's script has drawn: it says what it drew.
// It also tells scrolling that the top bar covers the top of the window,
// so that "jump to first error" centres the error below the bar and does
// not hide operations under it.
const selfCheck = `<script>
document.documentElement.style.scrollPaddingTop = document.getElementById('zablab-top').offsetHeight + 'px';
window.histview = { ready: true,
  operations: document.querySelectorAll('rect.history-rect').length,
  faults: document.querySelectorAll('rect.client-annotation-rect').length };
</script>`

func heading(p Page) string {
	var b strings.Builder
	b.WriteString(`<div id="zablab-head">`)
	fmt.Fprintf(&b, `<div style="font-size: 16px; font-weight: 700; color: #c62828">%s</div>`, html.EscapeString(p.Title))
	for _, n := range p.Notes {
		fmt.Fprintf(&b, `<div>%s</div>`, html.EscapeString(n))
	}
	b.WriteString(`<div style="margin-top: 4px">Each row above the line is a client; each box an operation from its call to its return. ` +
		`Hover over a box for the state before and after it. The rows below the line are the replicas' faults: `)
	for _, k := range []Kind{Kill, Stop, Restart, Looking, Down} {
		fmt.Fprintf(&b, `<span style="background: %s; padding: 0 5px; margin-right: 4px">%s</span>`, colours[k], k)
	}
	b.WriteString(`. "jump to first error" shows where no order of the operations explains the results.</div></div>`)
	return b.String()
}
