package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLongNoteSaysWhereTheRestIs: a refusal's note was cut at 200
// characters with "...", and a git hand-in's refusal lost its advice (git
// repack -a -d) to the cut with nothing to say where it was. A cut note
// now ends by naming the report, and stays within 200 characters.
func TestLongNoteSaysWhereTheRestIs(t *testing.T) {
	long := "submission bob: its repository borrows objects from another one through " + strings.Repeat("x", 200) + ": run git repack -a -d"
	n := reportNote(&Report{Status: "refused", Problems: []string{long}})
	if !strings.HasSuffix(n, "(the rest in report.txt)") || utf8.RuneCountInString(n) > maxNote {
		t.Errorf("note %q (%d characters): want at most %d, ending with where the rest is", n, utf8.RuneCountInString(n), maxNote)
	}
	short := "submission bob: not an archive"
	if n := reportNote(&Report{Status: "refused", Problems: []string{short}}); n != short {
		t.Errorf("a short note became %q", n)
	}
}
