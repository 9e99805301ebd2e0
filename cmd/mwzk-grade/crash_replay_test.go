package main

import (
	"os/exec"
	"testing"
)

// TestCrashLineStopsAtTheCrashingGoroutine: Go prints a fatal error's
// goroutines separated by blank lines on stderr; startAndCollect drops
// blank lines from stderr, so gradedFramesIn never sees the end of the
// crashing goroutine's stack and chains a frame of another goroutine (an
// idle loop) onto it, as if the crashing code had been called by it.
func TestCrashLineStopsAtTheCrashingGoroutine(t *testing.T) {
	root := testRoot(t, false)
	stderr := "fatal error: concurrent map writes\n\ngoroutine 41 [running]:\n" +
		"internal/runtime/maps.fatal({0x589cbf?, 0x0?})\n\t/usr/local/go/src/runtime/panic.go:1181 +0x18\n" +
		gradedPkg + ".(*Service).read(0xc000120000)\n\t/tmp/x/assignments/aufgabe5/reads.go:51 +0x45\n" +
		"zablab/zab.(*node).deliver(0xc0000b4000)\n\t/tmp/x/zab/runtime.go:300 +0x55\n" +
		"\ngoroutine 42 [select]:\n" +
		gradedPkg + ".(*Service).loop(0xc000120000)\n\t/tmp/x/assignments/aufgabe5/loop.go:9 +0x45\n"
	cmd := exec.Command("sh", "-c", "printf '%s' \"$1\" >&2; exit 2", "sh", stderr)
	r := collectRun(t, root, cmd)
	got := crashLine(r)
	if want := "fatal error: concurrent map writes, in (*Service).read (reads.go:51)"; got != want {
		t.Errorf("crashLine = %q, want %q (loop.go:9 is another goroutine's)", got, want)
	}
}
