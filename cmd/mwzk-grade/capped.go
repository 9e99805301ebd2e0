package main

import (
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"
)

// Limits on what a run keeps of the test binary's output. A hand-in that
// prints without end must not take the grader's memory (1 GiB written to
// stderr took the grader to 5.3 GB); the rest is read and dropped, so the
// binary never blocks on a full pipe, and one line says how much was cut.
const (
	stderrHead     = 1 << 20  // the start of stderr: panics, build trouble
	stderrTail     = 4 << 20  // its end: Go's timeout report and stacks come last (findStuck)
	maxTestOutput  = 64 << 10 // per test: the report shows its first lines
	maxOtherOutput = 1 << 20  // stdout outside every test
	maxRunOutput   = 4 << 20  // all tests together: test names can be forged on stdout
	maxTests       = 1000     // distinct test names kept; the suite has a few dozen
	lineOverhead   = 16       // a kept line's string header, counted with its bytes
)

// headTail is an io.Writer that keeps the first head and the last tail
// bytes written to it and counts the bytes in between. It never fails, so
// exec's copying goroutine drains the pipe to its end.
type headTail struct {
	head, tail int
	h, t       []byte
	cut        int64 // bytes dropped from the middle
}

func (w *headTail) Write(p []byte) (int, error) {
	n := len(p)
	if room := w.head - len(w.h); room > 0 {
		k := min(room, len(p))
		w.h = append(w.h, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	if len(p) >= w.tail {
		w.cut += int64(len(w.t) + len(p) - w.tail)
		w.t = append(w.t[:0], p[len(p)-w.tail:]...)
		return n, nil
	}
	w.t = append(w.t, p...)
	if over := len(w.t) - w.tail; over > 0 && len(w.t) >= 2*w.tail {
		// Shift only when the buffer has doubled: amortized linear.
		w.cut += int64(over)
		w.t = append(w.t[:0], w.t[over:]...)
	}
	return n, nil
}

// String is what was kept: the head, a line saying how much was cut, and
// the tail. Around the cut, partial lines are dropped too, so that no line
// is glued to another.
func (w *headTail) String() string {
	t := w.t
	cut := w.cut
	if over := len(t) - w.tail; over > 0 {
		cut += int64(over)
		t = t[over:]
	}
	if cut == 0 {
		return string(w.h) + string(t)
	}
	h := w.h
	if i := bytes.LastIndexByte(h, '\n'); i >= 0 {
		cut += int64(len(h) - i - 1)
		h = h[:i+1]
	}
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		cut += int64(i + 1)
		t = t[i+1:]
	}
	return string(h) + cutLine(cut) + "\n" + string(t)
}

// cutLine says how much output was dropped.
func cutLine(n int64) string {
	return "… " + byteSize(n) + " of output cut"
}

// byteSize is n in the largest binary unit that keeps it at 1 or more.
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	f, i := float64(n)/unit, 0
	for f >= unit && i < 3 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %s", f, []string{"KiB", "MiB", "GiB", "TiB"}[i])
}

// keepTestLine adds l to o's output unless o or the run has kept its
// share; after the first line cut, every later one is cut too, so what is
// kept is the output's start without holes.
func (r *run) keepTestLine(o *outcome, l string) {
	c := int64(len(l) + lineOverhead)
	if o.cut > 0 || o.kept+c > maxTestOutput || r.kept+c > maxRunOutput {
		o.cut += int64(len(l)) + 1
		return
	}
	o.kept += c
	r.kept += c
	o.lines = append(o.lines, l)
}

// keepOtherLine adds l to the output outside the tests, within its share.
func (r *run) keepOtherLine(l string) {
	c := int64(len(l) + lineOverhead)
	if r.otherCut > 0 || r.otherKept+c > maxOtherOutput {
		r.otherCut += int64(len(l)) + 1
		return
	}
	r.otherKept += c
	r.other = append(r.other, l)
}

// noteCuts ends each output that was cut with a line saying how much.
func (r *run) noteCuts() {
	for _, o := range r.tests {
		if o.cut > 0 {
			o.lines = append(o.lines, cutLine(o.cut))
		}
	}
	if r.otherCut > 0 {
		r.other = append(r.other, cutLine(r.otherCut))
	}
	if r.droppedEvents > 0 {
		r.other = append(r.other, fmt.Sprintf("… %d event(s) of further tests dropped (more than %d test names)", r.droppedEvents, maxTests))
	}
}

// lineCut passes at most n bytes of each line to w and, at the line's end,
// how many it dropped: one line of megabytes (a compiler message) keeps
// its start instead of vanishing in headTail's cut.
type lineCut struct {
	w       io.Writer
	n       int
	line    int // bytes of the current line seen
	dropped int // of them, not passed on
}

func (c *lineCut) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		seg := p
		if i >= 0 {
			seg = p[:i]
		}
		keep := min(max(c.n-c.line, 0), len(seg))
		for keep > 0 && keep < len(seg) && !utf8.RuneStart(seg[keep]) {
			keep-- // whole characters: a German word is cut before its ö
		}
		c.w.Write(seg[:keep])
		c.line += len(seg)
		c.dropped += len(seg) - keep
		if i < 0 {
			break
		}
		c.flush()
		c.w.Write([]byte{'\n'})
		p = p[i+1:]
	}
	return total, nil
}

// flush ends the current line's cut: the note of what was dropped.
func (c *lineCut) flush() {
	if c.dropped > 0 {
		fmt.Fprintf(c.w, " … (%d bytes more)", c.dropped)
	}
	c.line, c.dropped = 0, 0
}
