package main

import (
	"strings"
	"testing"
)

// TestReportShowsControlCharactersAsEscapes: the graded code's text in a
// report (a compiler line, a problem, the progress line's note) reaches
// the instructor's terminal with its ESC sequences and bidi overrides
// shown, not acted on (a review's suspicion).
func TestReportShowsControlCharactersAsEscapes(t *testing.T) {
	rep := &Report{Submission: "eve", Status: "compile-error", Repeat: 1,
		Compile:  []string{"assignments/aufgabe5/x.go:1:1: \x1b[2J\x1b]0;owned\x07 \u202egnp.exe"},
		Problems: []string{"panic: \x1b[31mred\x1b[0m\tand a tab"}}
	var b strings.Builder
	printReport(&b, rep)
	out := b.String()
	if i := strings.IndexFunc(out, unsafeRune); i >= 0 {
		t.Fatalf("the report holds control character %U at byte %d:\n%q", []rune(out[i:])[0], i, out)
	}
	for _, want := range []string{`\x1b[2J`, `\x07`, `\u202e`, "\tand a tab"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report does not show %q:\n%s", want, out)
		}
	}
	it := &batchItem{name: "eve", rep: &Report{Status: "compile-error", Compile: rep.Compile}}
	if line := visible(progressLine(it)); strings.ContainsRune(line, 0x1b) {
		t.Errorf("the progress line holds ESC: %q", line)
	}
}
