package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testdata/gotimeout.txt is what a suite binary printed when its
// -test.timeout stopped a Start that never returns.
func TestFindStuckNamesTheTestsAndTheGradedCode(t *testing.T) {
	b, err := os.ReadFile("testdata/gotimeout.txt")
	if err != nil {
		t.Fatal(err)
	}
	s, ok := findStuck(strings.Split(string(b), "\n"))
	if !ok {
		t.Fatal("Go's timeout report not found")
	}
	want := stuckReport{after: "2s", running: []string{"A5.1/Session"}, frames: []string{"(*Service).Start (service.go:4)"}}
	if diff := cmp.Diff(want, s, cmp.AllowUnexported(stuckReport{})); diff != "" {
		t.Errorf("findStuck (-want +got):\n%s", diff)
	}
	if _, ok := findStuck([]string{"FAIL", "exit status 1"}); ok {
		t.Error("a plain failure was taken for a timeout")
	}
}

func TestSuiteTimeoutComesBeforeTheGradersDeadline(t *testing.T) {
	for _, left := range []time.Duration{20 * time.Second, 3 * time.Minute, 15 * time.Minute} {
		got := suiteTimeout(left)
		if got >= left || got < left*8/10 {
			t.Errorf("suiteTimeout(%v) = %v: want a little less than %v", left, got, left)
		}
	}
}
