package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTraceHTMLWithoutTracesSaysWhy: make trace-html where make run
// TRACE=1 left no traces (TRACE forgotten, or make clean since) answered
// with zab-trace's bare usage line; it must name the folder it looked in
// and the command that writes traces there.
func TestTraceHTMLWithoutTracesSaysWhy(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	dir := t.TempDir()
	out, err := exec.Command("make", "-s", "-n", "-C", "../..", "trace-html", "TRACE_DIR="+dir).CombinedOutput()
	if err == nil || !strings.Contains(string(out), dir) || !strings.Contains(string(out), "make run TRACE=1") {
		t.Errorf("make trace-html with no traces in %s: %v\n%s\nwant a failure naming the folder and make run TRACE=1", dir, err, out)
	}
}
