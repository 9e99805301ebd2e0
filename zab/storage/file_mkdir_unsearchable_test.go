package storage

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMakeDirUnderAnUnsearchableAncestor: a relative data folder in
// a working folder that the process may use but whose ancestor it may not
// search (started from a folder that was then locked, or su'd from one).
// MkdirAll and the fsync of "." work; at 1b56f2b makeDir succeeded. The
// root-down fsync resolves the absolute path first and fails.
// Needs a non-root user: go test -c, then run under setpriv --reuid=65534.
func TestMakeDirUnderAnUnsearchableAncestor(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root searches every folder")
	}
	a := filepath.Join(t.TempDir(), "a")
	b := filepath.Join(a, "b")
	if err := os.MkdirAll(b, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(b)
	if err := os.Chmod(a, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(a, 0o755) })
	if err := makeDir("data"); err != nil {
		t.Fatalf("makeDir(data) in a usable working folder: %v", err)
	}
	if _, err := os.Stat("data"); err != nil {
		t.Fatalf("data not there: %v", err)
	}
}
