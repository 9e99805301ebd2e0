package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestReviewNoteKeepsUTF8: reportNote cuts a long note at byte 197. A
// refusal or compiler line with a non-ASCII character there (a German
// file name, an identifier "größe") is cut inside the character, and the
// gradebook's note column (and the progress line) gets invalid UTF-8.
func TestReviewNoteKeepsUTF8(t *testing.T) {
	line := "./apply.go:3:2: " + strings.Repeat("x", 178) + "größe undefined"
	// In both, "ö" is bytes 196 and 197 of the note.
	for _, r := range []*Report{
		{Status: "compile-error", Compile: []string{line}},
		{Status: "refused", Problems: []string{"foreign files: " + strings.Repeat("y", 180) + "Lösung.go, Übung.go"}},
	} {
		n := reportNote(r)
		if !utf8.ValidString(n) {
			t.Errorf("%s: note %q is not valid UTF-8 (cut inside a character)", r.Status, n[180:])
		}
		if row := gradebookRow("s", r, 100); !utf8.ValidString(row[len(row)-1]) {
			t.Errorf("%s: gradebook note column is not valid UTF-8", r.Status)
		}
	}
}
