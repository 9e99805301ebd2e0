package svctest

import (
	"strings"
	"testing"
)

// TestServingHintNamesTheStubsFile: a replica that never serves is what a
// student sees first with newZab written and callback.Status not yet; the
// hint named "the Status callback" but not where it is, while the grader's
// other hints name the stubs' file (answer in order.go).
func TestServingHintNamesTheStubsFile(t *testing.T) {
	h := NewHost("hint", 0)
	if got := servingHint(h, nil); !strings.Contains(got, "callback.Status in callback.go") {
		t.Errorf("no Serving call: hint %q does not name callback.Status in callback.go", got)
	}
}
