package storage

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestSecondStoreOnAFolderIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock on windows: data folders are not locked there")
	}
	logDir, snapDir := t.TempDir(), t.TempDir()
	s, err := OpenFileStore(logDir, snapDir)
	if err != nil {
		t.Fatal(err)
	}
	// The same snapshot folder under another log folder is taken too.
	_, err = OpenFileStore(t.TempDir(), snapDir)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second store on %s: %v, want ErrLocked", snapDir, err)
	}
	for _, want := range []string{snapDir, strconv.Itoa(os.Getpid()), LockName} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	if _, err := OpenFileStore(logDir, t.TempDir()); !errors.Is(err, ErrLocked) {
		t.Fatalf("second store on log folder %s: %v, want ErrLocked", logDir, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := OpenFileStore(logDir, snapDir)
	if err != nil {
		t.Fatalf("after Close the folders are free again: %v", err)
	}
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestOneFolderForLogAndSnapshotsIsLockedOnce(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenFileStore(dir, dir)
	if err != nil {
		t.Fatalf("log and snapshots in one folder: %v", err)
	}
	defer s.Close()
	if _, err := os.Stat(filepath.Join(dir, LockName)); err != nil {
		t.Fatalf("no lock file: %v", err)
	}
}
