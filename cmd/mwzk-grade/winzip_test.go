package main

import (
	"archive/zip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeZipMadeBy writes a zip whose entries say they were made on host
// (0: MS-DOS/Windows, 3: Unix), with names as given, backslashes and all.
func writeZipMadeBy(t *testing.T, file string, host uint16, files map[string]string) {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for n, d := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Deflate, CreatorVersion: host<<8 | 20})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(d))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestWindowsZipWithBackslashesIsGraded: Windows PowerShell 5.1's
// Compress-Archive (what Windows 10 and 11 ship) writes "\" as the path
// separator. The hand-in was refused, saying its entry "has an absolute
// path"; Info-ZIP and libarchive read such names of an archive made on
// MS-DOS/Windows with "/", and so does the grader now.
func TestWindowsZipWithBackslashesIsGraded(t *testing.T) {
	dir := t.TempDir()
	win := filepath.Join(dir, "anna.zip")
	writeZipMadeBy(t, win, 0, map[string]string{
		`aufgabe5\assignments\aufgabe5\service.go`: "package aufgabe5\n",
		`aufgabe5\README.md`:                       "# x\n",
	})
	s, err := loadSubmission(win, "")
	if err != nil {
		t.Fatalf("a zip of Compress-Archive: %v", err)
	}
	if len(s.Files) != 1 || s.Files["service.go"] == nil {
		t.Errorf("graded files %v, want service.go", s.Files)
	}
	evil := filepath.Join(dir, "evil.zip")
	writeZipMadeBy(t, evil, 0, map[string]string{`..\assignments\aufgabe5\service.go`: "package aufgabe5\n"})
	if _, err := loadSubmission(evil, ""); !errors.Is(err, errRefused) || !strings.Contains(err.Error(), "..") {
		t.Errorf(`a Windows zip with "..\": %v, want it refused for its .. element`, err)
	}
	unix := filepath.Join(dir, "odd.zip")
	writeZipMadeBy(t, unix, 3, map[string]string{`assignments/aufgabe5/a\b.go`: "package aufgabe5\n"})
	_, err = loadSubmission(unix, "")
	if !errors.Is(err, errRefused) || strings.Contains(err.Error(), "absolute") || !strings.Contains(err.Error(), `a\\b.go`) {
		t.Errorf("a Unix zip with a backslash in a name: %v, want it refused for the backslash, not as an absolute path", err)
	}
}

// TestColonInAFolderNameIsNoDrive: the check for a Windows drive
// ("C:/x", an absolute path) refused every entry whose second character
// is a colon, such as a tar's top folder "A:5" made on Linux, and with it
// the whole hand-in.
func TestColonInAFolderNameIsNoDrive(t *testing.T) {
	for name, drive := range map[string]bool{"C:/x.go": true, "c:": true, "A:5/assignments/aufgabe5/x.go": false, "1:/x": false} {
		_, err := checkName("h.tar.gz", name)
		if refused := err != nil && strings.Contains(err.Error(), "absolute path"); refused != drive {
			t.Errorf("entry %q: %v; refused as an absolute path %v, want %v", name, err, refused, drive)
		}
	}
}
