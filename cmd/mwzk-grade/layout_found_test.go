package main

import (
	"errors"
	"strings"
	"testing"
)

// TestMissingFolderRefusalSaysWhatWasFound: a hand-in packed from inside
// assignments/ (aufgabe5/*.go at the top) is refused naming the folder its
// Go files are in, and how many; the refusal had said only what was
// missing (an instructor's trial).
func TestMissingFolderRefusalSaysWhatWasFound(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"aufgabe5/tree.go", "aufgabe5/service.go", "aufgabe5/txn.go", "notes.txt"}, "has no assignments/aufgabe5/ folder, but aufgabe5/ with 3 .go files ("},
		{[]string{"service.go", "x/y.go", "x/z.go", "w/v.go"}, ", but x/ with 2 .go files, the top with 1 .go file, 1 more folder ("},
		{[]string{"README.md"}, ", and no .go file at all ("},
	} {
		var ents []entry
		for _, n := range c.names {
			ents = append(ents, entry{name: n, data: []byte("package aufgabe5\n")})
		}
		var s submission
		err := s.pick("bob.tar.gz", ents)
		if !errors.Is(err, errRefused) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.names, err, c.want)
		}
	}
}
