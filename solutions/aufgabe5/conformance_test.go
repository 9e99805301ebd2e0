package aufgabe5_test

import (
	"testing"

	"zablab/mwzookeeper/conformance"
	"zablab/solutions/aufgabe5"
)

// TestConformance grades the reference solution: it must pass every test
// of every part, every time (make grade IMPL=solution).
func TestConformance(t *testing.T) { conformance.Run(t, aufgabe5.New) }
