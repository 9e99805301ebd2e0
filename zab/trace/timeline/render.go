package timeline

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"strings"

	"zablab/zab/trace"
)

// Page is one run to draw.
type Page struct {
	Title   string        // the page's heading
	Summary string        // one line under it: the outcome
	Notes   []string      // more lines: how to replay, what the merge found
	Events  []trace.Event // in an order that keeps every peer's order and puts receipts after sends
	// Real says the events' times are Unix nanoseconds of real peers;
	// otherwise they are the simulator's milliseconds.
	Real bool
}

func (p *Page) unit() string {
	if p.Real {
		return "s"
	}
	return "ms"
}

// timeOf shows an event's time: the simulator's t=…ms, or a real peer's
// clock as seconds since t0, the first event's.
func (p *Page) timeOf(e *trace.Event, t0 int64) string {
	if !p.Real {
		return fmt.Sprintf("t=%dms", e.Time)
	}
	return fmt.Sprintf("%.3fs (peer %d's clock)", float64(e.Time-t0)/1e9, e.Peer)
}

//go:embed page.html
var pageHTML string

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

// Render writes p as one self-contained HTML page: the data, the style and
// the script inline, nothing fetched, so it opens from a file.
func Render(w io.Writer, p *Page) error {
	d := build(p)
	js, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("timeline: %w", err)
	}
	// The data sits in a <script> element: "</" must not end it early.
	js = bytes.ReplaceAll(js, []byte("</"), []byte(`<\/`))
	r := strings.NewReplacer("{{TITLE}}", html.EscapeString(p.Title), "{{CSS}}", pageCSS,
		"{{JS}}", pageJS, "{{DATA}}", string(js))
	_, err = io.WriteString(w, r.Replace(pageHTML))
	return err
}

// WriteFile renders p into the file path.
func WriteFile(path string, p *Page) error {
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("timeline: %w", err)
	}
	return nil
}
