package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// studentTreeAfterRun is a student's whole working copy after make run:
// bin/mwzk-server (about 15 MB) and a peer's preallocated log (4 MiB and
// 8 bytes), both past the 4 MiB a file the grader reads, neither graded.
func studentTreeAfterRun() map[string]string {
	return map[string]string{
		"aufgabe5/assignments/aufgabe5/service.go":                        "package aufgabe5\n",
		"aufgabe5/bin/mwzk-server":                                        strings.Repeat("\x7fELF", (maxFileSize+4096)/4),
		"aufgabe5/testdata/data/ensemble3/peer1/log/log.0000000100000001": strings.Repeat("\x00", maxFileSize+8),
		"aufgabe5/README.md":                                              "# Aufgabe 5\n",
	}
}

// TestWholeTreeWithBuildOutputIsGraded: README.md accepts a hand-in of
// the student's whole tree and grades only assignments/aufgabe5/*.go; a
// tree in which make run had built bin/ and written the peers' logs was
// refused as a whole ("entry .../log.0000000100000001 has 4194312 bytes
// (at most 4194304)") for files that are never graded. They are left
// unread and listed as ignored, in every form of hand-in.
func TestWholeTreeWithBuildOutputIsGraded(t *testing.T) {
	files := studentTreeAfterRun()
	dir := t.TempDir()
	folder := filepath.Join(dir, "folder")
	writeTree(t, folder, files)
	zipFile := filepath.Join(dir, "jane.zip")
	writeZip(t, zipFile, files)
	tarFile := filepath.Join(dir, "jane.tar")
	writeTar(t, tarFile, files)
	tgzFile := filepath.Join(dir, "jane.tar.gz")
	var ents []tarEntry
	for n, d := range files {
		ents = append(ents, tarEntry{name: n, data: d})
	}
	writeTarGz(t, tgzFile, ents)
	for _, p := range []string{folder, zipFile, tarFile, tgzFile} {
		s, err := loadSubmission(p, "")
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
			continue
		}
		if len(s.Files) != 1 || s.Files["service.go"] == nil {
			t.Errorf("%s: graded files %v, want service.go alone", filepath.Base(p), s.Files)
		}
		for _, big := range []string{"bin/mwzk-server", "log.0000000100000001"} {
			if !strings.Contains(strings.Join(s.Ignored, "\n"), big) {
				t.Errorf("%s: %s is not listed as ignored: %q", filepath.Base(p), big, s.Ignored)
			}
		}
	}
}

// TestLargeGradedFileIsStillRefused: a graded file past the limit is
// refused, naming it, as before: only files that are never graded are
// left unread.
func TestLargeGradedFileIsStillRefused(t *testing.T) {
	files := map[string]string{
		"assignments/aufgabe5/service.go": "package aufgabe5\n",
		"assignments/aufgabe5/table.go":   "package aufgabe5\n\n// " + strings.Repeat("x", maxFileSize) + "\n",
	}
	zipFile := filepath.Join(t.TempDir(), "big.zip")
	writeZip(t, zipFile, files)
	_, err := loadSubmission(zipFile, "")
	if !errors.Is(err, errRefused) || !strings.Contains(fmtErr(err), "assignments/aufgabe5/table.go") {
		t.Fatalf("a graded file of %d bytes: %v, want it refused by name", len(files["assignments/aufgabe5/table.go"]), err)
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
