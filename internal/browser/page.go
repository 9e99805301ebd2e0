package browser

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"zablab/internal/wait"
)

// Page is one tab, with every error its scripts raised or logged.
type Page struct {
	b       *Browser
	session string
	mu      sync.Mutex
	errs    []string
	loaded  chan struct{}
}

const callTimeout = 30 * time.Second

// Open opens url in a new tab of width × height CSS pixels and waits for
// its load event.
func (b *Browser) Open(t testing.TB, url string, width, height int) *Page {
	t.Helper()
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target, callTimeout); err != nil {
		t.Fatal(err)
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att, callTimeout); err != nil {
		t.Fatal(err)
	}
	p := &Page{b: b, session: att.SessionID, loaded: make(chan struct{}, 1)}
	b.subscribe(p.session, p.event)
	for _, m := range []string{"Page.enable", "Runtime.enable", "Log.enable"} {
		p.must(t, m, nil, nil)
	}
	p.must(t, "Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height,
		"deviceScaleFactor": 1, "mobile": false}, nil)
	select {
	case <-p.loaded: // about:blank's, if it came after Page.enable
	default:
	}
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	p.must(t, "Page.navigate", map[string]any{"url": url}, &nav)
	if nav.ErrorText != "" {
		t.Fatalf("opening %s: %s", url, nav.ErrorText)
	}
	select {
	case <-p.loaded:
	case <-time.After(callTimeout):
		t.Fatalf("%s did not finish loading within %v", url, callTimeout)
	}
	want, _ := json.Marshal(url)
	p.WaitFor(t, "the page "+url, "location.href === "+string(want)+" && document.readyState === 'complete'", callTimeout)
	return p
}

// FileURL is the file:// address of path.
func FileURL(t testing.TB, path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + filepath.ToSlash(abs)
}

// event keeps errors: uncaught exceptions, console.error and error
// entries of the browser's log (a resource that failed to load).
func (p *Page) event(method string, params json.RawMessage) {
	var msg string
	switch method {
	case "Page.loadEventFired":
		select {
		case p.loaded <- struct{}{}:
		default:
		}
	case "Runtime.exceptionThrown":
		var e struct {
			Details struct {
				Text      string `json:"text"`
				Line      int    `json:"lineNumber"`
				Exception struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		_ = json.Unmarshal(params, &e)
		msg = fmt.Sprintf("exception at line %d: %s %s", e.Details.Line+1, e.Details.Text, e.Details.Exception.Description)
	case "Runtime.consoleAPICalled":
		var e struct {
			Type string `json:"type"`
			Args []struct {
				Value       any    `json:"value"`
				Description string `json:"description"`
			} `json:"args"`
		}
		_ = json.Unmarshal(params, &e)
		if e.Type == "error" || e.Type == "assert" {
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, fmt.Sprint(a.Value)+a.Description)
			}
			msg = "console." + e.Type + ": " + strings.Join(parts, " ")
		}
	case "Log.entryAdded":
		var e struct {
			Entry struct {
				Level string `json:"level"`
				Text  string `json:"text"`
				URL   string `json:"url"`
			} `json:"entry"`
		}
		_ = json.Unmarshal(params, &e)
		if e.Entry.Level == "error" {
			msg = "log: " + e.Entry.Text + " " + e.Entry.URL
		}
	}
	if msg != "" {
		p.mu.Lock()
		p.errs = append(p.errs, msg)
		p.mu.Unlock()
	}
}

// Errors returns every error the page raised or logged so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errs...)
}

func (p *Page) must(t testing.TB, method string, params, out any) {
	t.Helper()
	if err := p.b.call(p.session, method, params, out, callTimeout); err != nil {
		t.Fatal(err)
	}
}

// Eval evaluates a JavaScript expression in the page and decodes its
// value (JSON-able) into out, which may be nil; undefined leaves out as
// it is. An exception fails t.
func (p *Page) Eval(t testing.TB, expr string, out any) {
	t.Helper()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	p.must(t, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r)
	if r.Exception != nil {
		t.Fatalf("evaluating %s: %s %s", expr, r.Exception.Text, r.Exception.Exception.Description)
	}
	if out != nil && len(r.Result.Value) > 0 { // undefined has no value: out stays as it is
		if err := json.Unmarshal(r.Result.Value, out); err != nil {
			t.Fatalf("evaluating %s: result %s: %v", expr, r.Result.Value, err)
		}
	}
}

// WaitFor evaluates expr until it is true, for up to d.
func (p *Page) WaitFor(t testing.TB, what, expr string, d time.Duration) {
	t.Helper()
	wait.For(t, what+" ("+expr+")", d, func() bool {
		var ok bool
		p.Eval(t, "!!("+expr+")", &ok)
		return ok
	})
}

// Mouse moves the mouse to (x, y) in CSS pixels of the viewport.
func (p *Page) Mouse(t testing.TB, x, y float64) {
	t.Helper()
	p.must(t, "Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": x, "y": y}, nil)
}

// Click presses and releases the left button at (x, y).
func (p *Page) Click(t testing.TB, x, y float64) {
	t.Helper()
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		p.must(t, "Input.dispatchMouseEvent", map[string]any{"type": typ, "x": x, "y": y, "button": "left", "clickCount": 1}, nil)
	}
}

// Key presses and releases a key named as KeyboardEvent.key does
// ("ArrowRight", "End"); shift holds Shift.
func (p *Page) Key(t testing.TB, key string, shift bool) {
	t.Helper()
	codes := map[string]int{"ArrowLeft": 37, "ArrowRight": 39, "Home": 36, "End": 35}
	mods := 0
	if shift {
		mods = 8
	}
	for _, typ := range []string{"keyDown", "keyUp"} {
		p.must(t, "Input.dispatchKeyEvent", map[string]any{"type": typ, "key": key, "code": key,
			"windowsVirtualKeyCode": codes[key], "modifiers": mods}, nil)
	}
}

// Screenshot saves the viewport as a PNG file.
func (p *Page) Screenshot(t testing.TB, path string) {
	t.Helper()
	var r struct {
		Data string `json:"data"`
	}
	p.must(t, "Page.captureScreenshot", map[string]any{"format": "png"}, &r)
	b, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// PicturesEnv names the folder where Picture saves screenshots for the
// docs (make pictures sets it to docs/pictures).
const PicturesEnv = "ZABLAB_PICTURES"

// Picture saves the viewport as <name>.png in $ZABLAB_PICTURES when that
// is set, for docs/pictures.md, with 256 colours to keep it small;
// otherwise it does nothing.
func (p *Page) Picture(t testing.TB, name string) {
	t.Helper()
	dir := os.Getenv(PicturesEnv)
	if dir == "" {
		return
	}
	path := filepath.Join(dir, name+".png")
	p.Screenshot(t, path)
	if err := shrinkPNG(path); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > 250<<10 {
		t.Errorf("picture %s has %d KiB; docs pictures stay well under 300 KiB: show less", path, st.Size()>>10)
	}
	t.Logf("picture %s (%d KiB)", path, st.Size()>>10)
}
