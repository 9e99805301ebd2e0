package main

import (
	"slices"
	"strings"
	"testing"
)

// TestCopyNotesIgnoreLineEndings: a hand-in zipped on Windows (Git for
// Windows checks out with CRLF by default) of the untouched stubs, or of
// the reference, is the same code with other line endings, and compiles
// the same. It got no note: the stubs' 0 points went unexplained and the
// reference's full points unremarked.
func TestCopyNotesIgnoreLineEndings(t *testing.T) {
	root := moduleRootOrSkip(t)
	for _, c := range []struct{ dir, note string }{
		{gradedDir, stubsUnchanged},
		{refFolder, referenceCopy},
	} {
		files := map[string][]byte{}
		for n, data := range folderFiles(t, root, c.dir) {
			files[n] = []byte(strings.ReplaceAll(data, "\n", "\r\n"))
		}
		if got := copyNotes(root, files); !slices.Equal(got, []string{c.note}) {
			t.Errorf("the files of %s with CRLF line endings: notes %q, want %q", c.dir, got, c.note)
		}
	}
}

// moduleRootOrSkip is the checkout's root; the test needs the reference,
// which the students' handout has not.
func moduleRootOrSkip(t *testing.T) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	skipWithoutReference(t, root)
	return root
}
