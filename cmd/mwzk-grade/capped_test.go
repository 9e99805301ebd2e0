package main

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestFloodedStderrIsCut: a test binary that writes 64 MiB to stderr is
// read to its end (it does not block), the grader keeps its start and its
// end only, and one line says how much was cut.
func TestFloodedStderrIsCut(t *testing.T) {
	root := testRoot(t, false)
	script := `yes 'spam spam spam' | head -c 67108864 >&2; printf '\npanic: test timed out after 1s\n' >&2`
	cmd := exec.Command("sh", "-c", script)
	r := collectRun(t, root, cmd)
	kept := 0
	for _, l := range r.other {
		kept += len(l) + 1
	}
	if kept > stderrHead+stderrTail+1024 {
		t.Errorf("kept %d bytes of stderr, want at most %d", kept, stderrHead+stderrTail)
	}
	if !hasLine(r.other, "MiB of output cut") {
		t.Errorf("no line says how much of stderr was cut")
	}
	if _, ok := findStuck(r.other); !ok {
		t.Errorf("Go's timeout report at the end of stderr was cut")
	}
}

// TestFloodedTestOutputIsCut: a test's output, the output outside the
// tests and forged test names are kept only up to their limits.
func TestFloodedTestOutputIsCut(t *testing.T) {
	var b strings.Builder
	line := `{"Action":"output","Test":"%s","Output":"` + strings.Repeat("x", 1000) + `\n"}` + "\n"
	for range 10000 {
		fmt.Fprintf(&b, line, "TestConformance/A5.1/Flood")
		fmt.Fprintf(&b, line, "")
	}
	for i := range 2 * maxTests {
		fmt.Fprintf(&b, `{"Action":"output","Test":"TestConformance/A5.9/Fake%d","Output":"x\n"}`+"\n", i)
	}
	r := &run{tests: map[string]*outcome{}, sealed: map[string]sealedResult{}}
	parseEvents(strings.NewReader(b.String()), r)
	o := r.tests["A5.1/Flood"]
	if o == nil || o.kept > maxTestOutput || !hasLine(o.lines, "MiB of output cut") {
		t.Errorf("test output: %v kept, want at most %d and a line saying what was cut", o.kept, maxTestOutput)
	}
	if r.otherKept > maxOtherOutput || !hasLine(r.other, "MiB of output cut") {
		t.Errorf("output outside tests: %d kept, want at most %d and a line saying what was cut", r.otherKept, maxOtherOutput)
	}
	if len(r.tests) > maxTests || !hasLine(r.other, "event(s) of further tests dropped") {
		t.Errorf("%d test names kept, want at most %d and a line saying so", len(r.tests), maxTests)
	}
}

// TestByteSize: the cut line's sizes.
func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{5: "5 bytes", 1536: "1.5 KiB", 1 << 30: "1.0 GiB", 1288490189: "1.2 GiB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}

func hasLine(lines []string, sub string) bool {
	for _, l := range lines {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}

// TestOverlongLinesAreDrained: a line too long for the scanner ends the
// parsing, but the pipe is still read to its end, so the writer (test2json
// or the suite) is not blocked.
func TestOverlongLinesAreDrained(t *testing.T) {
	for what, read := range map[string]func(*run, io.Reader){
		"events":         func(r *run, rd io.Reader) { parseEvents(rd, r) },
		"result channel": func(r *run, rd io.Reader) { r.readSealed(make([]byte, 32), rd) },
	} {
		pr, pw := io.Pipe()
		done := make(chan error, 1)
		go func() {
			_, err := pw.Write(bytes.Repeat([]byte("x"), 17<<20))
			if err == nil {
				_, err = pw.Write([]byte("\nmore after the long line\n"))
			}
			pw.Close()
			done <- err
		}()
		r := &run{tests: map[string]*outcome{}, sealed: map[string]sealedResult{}}
		read(r, pr)
		pr.Close() // a writer still blocked now fails
		if err := <-done; err != nil {
			t.Errorf("%s: the writer was not read to its end: %v", what, err)
		}
		if !hasLine(append(r.other, r.problems...), "token too long") {
			t.Errorf("%s: nothing says a line was too long: %q", what, append(r.other, r.problems...))
		}
	}
}

// collectRun runs cmd as the grader runs the suite (its own group, a
// result pipe nobody signs on) and collects what it printed.
func collectRun(t *testing.T, root string, cmd *exec.Cmd) *run {
	t.Helper()
	inGroup(cmd)
	key := make([]byte, 32)
	rand.Read(key)
	resR, resW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.ExtraFiles = []*os.File{resW}
	r, err := startAndCollect(cmd, &tree{dir: root}, key, resR)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
