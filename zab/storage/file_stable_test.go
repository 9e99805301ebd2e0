package storage

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"zablab/zab/core"
)

func TestFileStableRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing", "folder")
	s, err := OpenFileStable(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := s.Load(); err != nil || st != (core.StableState{}) {
		t.Fatalf("Load of a new store = %+v, %v; want zero state", st, err)
	}
	for _, st := range []core.StableState{{AcceptedEpoch: 1}, {AcceptedEpoch: 2, CurrentEpoch: 1}, {AcceptedEpoch: ^uint32(0), CurrentEpoch: ^uint32(0) - 1}} {
		if err := s.Store(st); err != nil {
			t.Fatal(err)
		}
		s2, err := OpenFileStable(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s2.Load(); err != nil || got != st {
			t.Fatalf("after reopening Load = %+v, %v; want %+v", got, err, st)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, stableName+tmpSuffix)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary file left behind: %v", err)
	}
}

func TestFileStableLeftoverTmpIsIgnored(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenFileStable(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := core.StableState{AcceptedEpoch: 4, CurrentEpoch: 3}
	if err := s.Store(want); err != nil {
		t.Fatal(err)
	}
	// A crash during the next Store leaves a half-written temporary file.
	if err := os.WriteFile(filepath.Join(dir, stableName+tmpSuffix), []byte("ZS"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = OpenFileStable(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.Load(); err != nil || got != want {
		t.Fatalf("Load = %+v, %v; want %+v", got, err, want)
	}
}

func TestFileStableCorrupt(t *testing.T) {
	good := encodeStable(core.StableState{AcceptedEpoch: 5, CurrentEpoch: 4})
	flip := func(i int) []byte {
		b := append([]byte(nil), good...)
		b[i] ^= 1
		return b
	}
	tests := []struct {
		name    string
		content []byte
		want    string
	}{
		{"empty", nil, "0 bytes"},
		{"short", good[:12], "12 bytes"},
		{"long", append(append([]byte(nil), good...), 0), "21 bytes"},
		{"bad magic", flip(0), "magic"},
		{"newer version", flip(5), "version"},
		{"flipped epoch bit", flip(9), "checksum"},
		{"flipped checksum bit", flip(17), "checksum"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, stableName)
			if err := os.WriteFile(path, tt.content, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := OpenFileStable(dir)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("OpenFileStable = %v, want ErrCorrupt", err)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q should name %s and say %q", err, path, tt.want)
			}
			s := &FileStable{dir: dir, path: path}
			if _, err := s.Load(); !errors.Is(err, ErrCorrupt) {
				t.Errorf("Load = %v, want ErrCorrupt", err)
			}
		})
	}
}
