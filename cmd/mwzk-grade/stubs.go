package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// stubsUnchanged is the problem a hand-in gets whose graded files are the
// checkout's stubs byte for byte: its 0 points then mean "the wrong folder,
// branch or commit was handed in" more often than "nothing was done", and
// an instructor should see that in the gradebook's note, not guess it.
const stubsUnchanged = "the graded files are the stubs of " + gradedDir + ", unchanged: was the right folder or commit handed in?"

// sameAsStubs says whether files (the graded folder's non-test Go files of
// a hand-in) are exactly the non-test Go files of the grader's own
// assignments/aufgabe5, which in a course's checkout are the stubs.
func sameAsStubs(root string, files map[string][]byte) bool {
	names, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(gradedDir), "*.go"))
	if err != nil {
		return false
	}
	names = slices.DeleteFunc(names, func(n string) bool { return strings.HasSuffix(n, "_test.go") })
	if len(names) == 0 || len(names) != len(files) {
		return false
	}
	for _, n := range names {
		data, ok := files[filepath.Base(n)]
		if !ok {
			return false
		}
		stub, err := os.ReadFile(n)
		if err != nil || !bytes.Equal(stub, data) {
			return false
		}
	}
	return true
}

// stubsNote is the gradebook's note of a graded hand-in of the unchanged
// stubs, "" for any other. A grade.json of an older grader (a batch's
// gradebook is written from the grades on record) has it among the problems.
func stubsNote(r *Report) string {
	if slices.Contains(r.Notes, stubsUnchanged) || slices.Contains(r.Problems, stubsUnchanged) {
		return stubsUnchanged
	}
	return ""
}
