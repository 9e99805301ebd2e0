package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestArchiveUncheckedUntilItsCheckPasses (left from an instructor's
// trial): make handout wrote handout/aufgabe5.tar.gz before its check of
// several minutes, so a check stopped with Ctrl-C left an archive that
// looked ready to hand out; an older run's archive looked like this one's.
// The archive is <out>.unchecked until its check passes.
func TestArchiveUncheckedUntilItsCheckPasses(t *testing.T) {
	out := filepath.Join(t.TempDir(), "handout", "aufgabe5.tar.gz")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, stale := range []string{out, out + failedSuffix} {
		if err := os.WriteFile(stale, []byte("an earlier run's"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	written, err := writeArchive(options{out: out, check: true}, []byte("new"))
	if err != nil {
		t.Fatal(err)
	}
	if written != out+uncheckedSuffix {
		t.Errorf("with the check the archive is written to %s, want %s", written, out+uncheckedSuffix)
	}
	for _, gone := range []string{out, out + failedSuffix} {
		if _, err := os.Stat(gone); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is there while the new archive is unchecked (%v)", gone, err)
		}
	}
	if err := settle(written, out, nil); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != "new" {
		t.Errorf("after a passed check %s holds %q (%v), want the new archive", out, b, err)
	}
	if _, err := os.Stat(written); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s is still there after its check passed (%v)", written, err)
	}
	if written, err := writeArchive(options{out: out}, []byte("fast")); err != nil || written != out {
		t.Errorf("without the check the archive went to %s (%v), want %s", written, err, out)
	}
}
