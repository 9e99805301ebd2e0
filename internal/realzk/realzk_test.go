package realzk

import (
	"errors"
	"strings"
	"testing"
)

// TestStartTServesRuokAndSrvr starts one server (or uses
// ZABLAB_REALZK_ADDR) and asks it ruok and srvr; it skips where java or
// the jars are missing.
func TestStartTServesRuokAndSrvr(t *testing.T) {
	if _, err := ClassPath(); err != nil && !errors.Is(err, ErrMissing) {
		t.Fatalf("ClassPath: %v does not wrap ErrMissing", err)
	}
	addr := StartT(t)
	if got := FourLetter(addr, "ruok"); got != "imok" {
		t.Errorf("ruok: %q, want imok", got)
	}
	if got := FourLetter(addr, "srvr"); !strings.Contains(got, "Mode: ") {
		t.Errorf("srvr: %q, want a Mode: line", got)
	}
	if !Serving(addr) {
		t.Errorf("Serving(%s) false", addr)
	}
}
