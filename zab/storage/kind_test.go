package storage

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckKind: a new store records the kind that opens it, the same
// kind passes, the other is refused naming the file, and a damaged file
// is ErrCorrupt.
func TestCheckKind(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenFileStore(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CheckKind(KindEnsemble, false); err != nil {
		t.Fatalf("first CheckKind: %v", err)
	}
	if err := s.CheckKind(KindEnsemble, false); err != nil {
		t.Errorf("CheckKind of the same kind: %v", err)
	}
	err = s.CheckKind(KindSingle, false)
	var de *DirError
	if !errors.Is(err, ErrOtherKind) || !errors.As(err, &de) || de.Dir != dir {
		t.Errorf("CheckKind of the other kind: %v, want ErrOtherKind in a DirError of %s", err, dir)
	}
	if err := os.WriteFile(filepath.Join(dir, kindName), []byte("triple\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckKind(KindSingle, false); !errors.Is(err, ErrCorrupt) {
		t.Errorf("CheckKind of a file naming no kind: %v, want ErrCorrupt", err)
	}
}
