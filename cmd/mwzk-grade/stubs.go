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

// referenceCopy is the note of a hand-in whose graded files are the
// reference solution's byte for byte. Its full points are real, but an
// instructor should know the code came from the instructors' tree (a
// leaked copy, or the instructor's own test hand-in), not from a student.
const referenceCopy = "the graded files are the reference solution's (" + refFolder + "), byte for byte: from the instructors' tree?"

// refFolder is where the reference lives in the instructors' checkout; the
// students' handout has no such folder.
const refFolder = "solutions/aufgabe5/"

// sameAsFolder says whether files (the graded folder's non-test Go files
// of a hand-in) are exactly the non-test Go files of the checkout's folder
// dir (slash-separated, from the root: its assignments/aufgabe5, which in
// a course's checkout are the stubs, or the reference); false where the
// folder has none. Line endings aside: a hand-in zipped on Windows (Git
// for Windows checks out CRLF) is the same copy.
func sameAsFolder(root, dir string, files map[string][]byte) bool {
	names, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(dir), "*.go"))
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
		if err != nil || !bytes.Equal(lfOnly(stub), lfOnly(data)) {
			return false
		}
	}
	return true
}

// copyNote is the gradebook's note of a graded hand-in of the unchanged
// stubs or of the reference, "" for any other. A grade.json of an older
// grader (a batch's gradebook is written from the grades on record) has
// the stubs' note among the problems.
func copyNote(r *Report) string {
	switch {
	case slices.Contains(r.Notes, stubsUnchanged) || slices.Contains(r.Problems, stubsUnchanged):
		return stubsUnchanged
	case slices.Contains(r.Notes, referenceCopy):
		return referenceCopy
	}
	return ""
}

// copyNotes are a hand-in's notes on being a copy of the checkout's stubs
// or of its reference.
func copyNotes(root string, files map[string][]byte) []string {
	switch {
	case sameAsFolder(root, gradedDir, files):
		return []string{stubsUnchanged}
	case sameAsFolder(root, refFolder, files):
		return []string{referenceCopy}
	}
	return nil
}

// lfOnly is b with its CRLF line endings made LF.
func lfOnly(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
}
