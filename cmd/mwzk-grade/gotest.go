package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// event is one line of go test -json (test2json).
type event struct {
	Action string
	Test   string
	Output string
}

// outcome is what one run says about one test.
type outcome struct {
	status string   // "pass", "fail", "skip", or "" when it never finished
	lines  []string // its output
}

// run is one go test run of the suite.
type run struct {
	tests   map[string]*outcome // by "A5.2/ReadYourWrites"
	other   []string            // output not inside a test: build errors, panics
	exitErr error
}

// suitePrefix is the top-level test every conformance test runs under.
const suitePrefix = "TestConformance/"

// goTest runs the suite once: go test -json in root, on pkg, for part
// ("" means all parts), with MWZK_GRADE=1 and, if set, an overlay.
func goTest(root, pkg, part, overlay string, timeout time.Duration, log io.Writer) (*run, error) {
	pattern := "TestConformance/"
	if part != "" {
		pattern += "^" + strings.ReplaceAll(part, ".", `\.`) + "$/"
	}
	args := []string{"test", "-json", "-count=1", "-timeout", timeout.String(), "-run", pattern}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	args = append(args, pkg)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "MWZK_GRADE=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "mwzk-grade: go %s\n", strings.Join(args, " "))
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("mwzk-grade: start go test: %w", err)
	}
	r := parseEvents(stdout)
	r.exitErr = cmd.Wait()
	for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if l != "" {
			r.other = append(r.other, l)
		}
	}
	var ee *exec.ExitError
	if r.exitErr != nil && !errors.As(r.exitErr, &ee) {
		return nil, fmt.Errorf("mwzk-grade: go test: %w", r.exitErr)
	}
	return r, nil
}

// parseEvents reads go test -json output.
func parseEvents(rd io.Reader) *run {
	r := &run{tests: map[string]*outcome{}}
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			r.other = append(r.other, sc.Text())
			continue
		}
		name, ok := strings.CutPrefix(e.Test, suitePrefix)
		if !ok || strings.Count(name, "/") != 1 {
			if (e.Action == "output" || e.Action == "build-output") && e.Test == "" {
				r.other = append(r.other, strings.TrimRight(e.Output, "\n"))
			}
			continue
		}
		o := r.tests[name]
		if o == nil {
			o = &outcome{}
			r.tests[name] = o
		}
		switch e.Action {
		case "output":
			o.lines = append(o.lines, strings.TrimRight(e.Output, "\n"))
		case "pass", "fail", "skip":
			o.status = e.Action
		}
	}
	return r
}

// failureLines picks the lines of a test's output that say what broke:
// its log lines, without go test's own "=== RUN" and "--- FAIL" lines.
func failureLines(lines []string, max int) []string {
	var out []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
			continue
		}
		out = append(out, t)
		if len(out) == max {
			break
		}
	}
	return out
}
