package main

import (
	"fmt"
	"os"
	"testing"
)

// TestMain lets this test binary be the sandbox's first process, as
// mwzk-grade is: the grader starts its own executable with sandboxArg.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandboxArg {
		os.Exit(sandboxMain(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == limitArg {
		os.Exit(limitMain(os.Args[2:]))
	}
	if gorunRoleMain() {
		os.Exit(0)
	}
	if err := sandboxCheck(); err != nil {
		fmt.Fprintf(os.Stderr, "mwzk-grade tests: no sandbox on this machine (%v): hand-ins are graded unconfined here\n", err)
		testsUnconfined = true
	}
	os.Exit(m.Run())
}
