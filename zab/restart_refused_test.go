package zab

import (
	"errors"
	"strings"
	"testing"
)

// TestStartupAgainNamesWhy: a second Startup of a running peer, and a
// Startup after Shutdown, are refused; the second said "Startup called
// twice" too, which sends a user looking for a double call that is not
// there: Shutdown closed the peer for good, and a new Zab starts again.
func TestStartupAgainNamesWhy(t *testing.T) {
	z, _, _ := single(t, t.TempDir(), 1000)
	if err := z.Startup(); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "called twice") {
		t.Errorf("Startup of a running peer: %v, want ErrConfig saying it was called twice", err)
	}
	if err := z.Shutdown(); err != nil {
		t.Fatal(err)
	}
	err := z.Startup()
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "after Shutdown") {
		t.Errorf("Startup after Shutdown: %v, want ErrConfig saying Shutdown came first", err)
	}
}
