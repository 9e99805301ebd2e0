package storage

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// retiredFiles lists the files in dir still waiting to be released.
func retiredFiles(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		if strings.HasPrefix(de.Name(), releasePrefix) {
			out = append(out, de.Name())
		}
	}
	return out
}

// RemoveBefore leaves nothing behind: not the log files, not their
// retired names.
func TestRemoveBeforeReleasesEverything(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, smallFiles)
	defer closeLog(t, l)
	es := testEntries(1, 1, 60)
	writeLog(t, l, es)
	before := len(logFiles(t, dir))
	z := l.segs[3].first
	if err := l.RemoveBefore(z); err != nil {
		t.Fatal(err)
	}
	if got := len(logFiles(t, dir)); got != before-3 {
		t.Errorf("%d log files after RemoveBefore, want %d", got, before-3)
	}
	if r := retiredFiles(t, dir); len(r) != 0 {
		t.Errorf("retired files left behind: %v", r)
	}
	checkEntries(t, l, z, entriesAbove(es, z))
}

// A crash between retiring a file and releasing it leaves the retired
// name: the next opening removes it and does not read it as log.
func TestRetiredFilesOfACrashGoAtOpening(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, smallFiles)
	es := testEntries(1, 1, 60)
	writeLog(t, l, es)
	oldest := l.segs[0].path
	z := l.segs[1].first - 1
	closeLog(t, l)
	if _, err := retire(dir, []string{oldest}); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, releasePrefix+"log.00000001000000ff")
	if err := os.WriteFile(garbage, []byte("half released"), 0o644); err != nil {
		t.Fatal(err)
	}
	l = openLog(t, dir, smallFiles)
	defer closeLog(t, l)
	if r := retiredFiles(t, dir); len(r) != 0 {
		t.Errorf("retired files still there after opening: %v", r)
	}
	checkEntries(t, l, z, entriesAbove(es, z))
}

// release gives a file back in steps and then removes it; a file that is
// not there is an error naming it.
func TestReleaseRemovesTheFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, releasePrefix+"log.0000000100000001")
	if err := os.WriteFile(p, make([]byte, 2*releaseStep+10), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := release(p); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("after release: %v, want the file gone", err)
	}
	err := release(p)
	if err == nil || !strings.Contains(err.Error(), p) {
		t.Fatalf("release of a missing file: %v, want an error naming %s", err, p)
	}
}
