package browser

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// RequiredEnv set to 1 makes a missing Chromium fail a test instead of
// skipping it: CI installs Chromium, so there a skip would hide a break.
const RequiredEnv = "ZABLAB_BROWSER_REQUIRED"

// PathEnv names the Chromium binary to use instead of the first of
// chromium, chromium-browser and google-chrome on PATH.
const PathEnv = "ZABLAB_CHROMIUM"

// Browser is one headless Chromium with a DevTools connection.
type Browser struct {
	cmd  *exec.Cmd
	ws   *wsConn
	mu   sync.Mutex
	next int64
	wait map[int64]chan reply
	subs map[string][]func(method string, params json.RawMessage)
	done chan struct{}
	err  error // why the connection ended
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// Find returns the Chromium binary, or why there is none.
func Find() (string, error) {
	if p := os.Getenv(PathEnv); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium, chromium-browser or google-chrome on PATH (Debian: apt-get install chromium; or set " + PathEnv + ")")
}

var listening = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

// Start launches a headless Chromium with a fresh profile and connects to
// it; the test's cleanup stops it. Without Chromium the test skips (or
// fails when RequiredEnv is 1).
func Start(t testing.TB) *Browser {
	t.Helper()
	bin, err := Find()
	if err != nil {
		if os.Getenv(RequiredEnv) == "1" {
			t.Fatalf("%v, and %s=1", err, RequiredEnv)
		}
		t.Skipf("skipped: %v", err)
	}
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-default-apps", "--disable-extensions", "--mute-audio", "--hide-scrollbars",
		"--user-data-dir="+t.TempDir(), "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "about:blank")
	ownGroup(cmd) // its helper processes are stopped with it
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	b := &Browser{cmd: cmd, wait: map[int64]chan reply{}, subs: map[string][]func(string, json.RawMessage){},
		done: make(chan struct{})}
	t.Cleanup(b.stop)
	wsURL, lines := awaitURL(stderr)
	if wsURL == "" {
		t.Fatalf("%s printed no DevTools address within 30 s; its output:\n%s", bin, lines)
	}
	if b.ws, err = dialWS(wsURL); err != nil {
		t.Fatalf("connecting to %s: %v", wsURL, err)
	}
	go b.readLoop()
	return b
}

// awaitURL reads Chromium's standard error until it names its DevTools
// address; the rest of the output is drained so Chromium never blocks.
func awaitURL(r io.Reader) (string, string) {
	found := make(chan string, 1)
	var mu sync.Mutex
	var seen []string
	go func() {
		sc := bufio.NewScanner(r)
		sent := false
		for sc.Scan() {
			mu.Lock()
			if len(seen) < 50 {
				seen = append(seen, sc.Text())
			}
			mu.Unlock()
			if m := listening.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case u := <-found:
		return u, ""
	case <-time.After(30 * time.Second):
	}
	mu.Lock()
	defer mu.Unlock()
	return "", strings.Join(seen, "\n")
}

func (b *Browser) stop() {
	if b.ws != nil {
		_ = b.call("", "Browser.close", nil, nil, 5*time.Second)
		_ = b.ws.close()
	}
	exited := make(chan struct{})
	go func() { _ = b.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		killGroup(b.cmd) // the group this Start made
		<-exited
	}
}

func (b *Browser) readLoop() {
	defer close(b.done)
	for {
		raw, err := b.ws.read()
		if err != nil {
			b.mu.Lock()
			b.err = err
			b.mu.Unlock()
			return
		}
		var m struct {
			ID        int64           `json:"id"`
			Method    string          `json:"method"`
			Params    json.RawMessage `json:"params"`
			SessionID string          `json:"sessionId"`
			reply
		}
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch := b.wait[m.ID]; ch != nil {
				ch <- m.reply
				delete(b.wait, m.ID)
			}
		}
		subs := b.subs[m.SessionID]
		b.mu.Unlock()
		if m.Method != "" {
			for _, f := range subs {
				f(m.Method, m.Params)
			}
		}
	}
}

// call sends a DevTools command (to a page's session, or to the browser
// with session "") and decodes its result into out.
func (b *Browser) call(session, method string, params, out any, timeout time.Duration) error {
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan reply, 1)
	b.wait[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if params == nil {
		msg["params"] = map[string]any{}
	}
	if session != "" {
		msg["sessionId"] = session
	}
	raw, _ := json.Marshal(msg)
	if err := b.ws.write(opText, raw); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(r.Result, out)
		}
		return nil
	case <-b.done:
		return fmt.Errorf("%s: connection to Chromium ended: %v", method, b.err)
	case <-time.After(timeout):
		return fmt.Errorf("%s: no answer from Chromium within %v", method, timeout)
	}
}

func (b *Browser) subscribe(session string, f func(method string, params json.RawMessage)) {
	b.mu.Lock()
	b.subs[session] = append(b.subs[session], f)
	b.mu.Unlock()
}
