package svctest

import (
	"os"
	"testing"
)

// DataDir is a new empty folder for an ensemble's files, removed when t
// ends. Its path names no test, as t.TempDir's does: graded code reads the
// path in its properties, and a test's name there would let a submission
// behave differently in each test (a red-team review).
func DataDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "mwzk-")
	if err != nil {
		t.Fatalf("svctest: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
