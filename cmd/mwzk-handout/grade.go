package main

import (
	"fmt"
)

// zeroPoints checks that make grade, run on the untouched stubs in dir,
// gave 0 points. out is its output.
func zeroPoints(dir string, out []byte) error {
	// Filled in once cmd/mwzk-grade's report is known.
	_ = dir
	_ = out
	return fmt.Errorf("%w: zeroPoints not written yet", errCheck)
}
