package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// The compile runs the hand-in's text through the compiler on the
// grader's host: its output, memory and time are bounded and named as a
// run's are. (From a review's failing tests.)

// typeBomb is a graded file of about 300 bytes whose one compile error
// prints a type whose text doubles with each nested call: bombQ[T, T] of
// bombQ[T, T] of ... (depth 16: 525 KB of message; 22: 48 MiB).
func typeBomb(depth int) string {
	call := "0"
	for range depth {
		call = "bombG(" + call + ")"
	}
	return fmt.Sprintf(`package aufgabe5

type bombQ[A, B any] struct {
	a A
	b B
}

func bombG[T any](x T) bombQ[T, T] { return bombQ[T, T]{x, x} }

var bombS string = %s
`, call)
}

// TestCompileOutputIsBounded: a compile error of megabytes is kept as its
// start and end, each line cut, as a run's output is.
func TestCompileOutputIsBounded(t *testing.T) {
	msg := compileHandIn(t, func(f map[string]string) { f["bomb.go"] = typeBomb(18) })
	if limit := compileHead + compileTail + 4<<10; len(msg) > limit {
		t.Fatalf("a %d-byte graded file made the grader keep %d bytes of compiler output (at most %d); start: %.200q",
			len(typeBomb(18)), len(msg), limit, msg)
	}
	for _, l := range strings.Split(msg, "\n") {
		if len(l) > compileLine+100 {
			t.Fatalf("a line of %d bytes was kept (at most %d): %.200q", len(l), compileLine, l)
		}
	}
	if !strings.Contains(msg, "bytes more)") {
		t.Errorf("the cut line does not say how much was cut: %.300q", msg)
	}
}

// TestCompileMemoryIsCapped: the compiler and linker get the sandbox's
// memory cap (here lowered to 512 MiB; the stubs need about 240), and a
// hand-in that makes them exceed it is a compile error that says so.
func TestCompileMemoryIsCapped(t *testing.T) {
	saved := jailMemory
	defer func() { jailMemory = saved }()
	jailMemory = 512 << 20
	files := folderFiles(t, testRoot(t, false), "assignments/aufgabe5")
	files["big.go"] = "package aufgabe5\n\nvar bigA = [768 << 20]byte{768<<20 - 1: 1}\n"
	tr, sub := handInTree(t, inFolder("handin", files))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, err := compileSuite(ctx, tr, sub, false)
	if err == nil {
		t.Fatalf("a hand-in with a 768 MiB array compiled (%s) under a cap of %d MiB", bin, jailMemory>>20)
	}
	if !strings.Contains(err.Error(), "the grader gives the compiler 512 MiB") {
		t.Errorf("the compile failed without saying it ran out of memory: %.600s", err)
	}
}

// TestCompileTimeoutIsNamed: a compile that does not finish in the time
// limit is a timeout whose report says the code never finished compiling
// and lists no test as failed.
func TestCompileTimeoutIsNamed(t *testing.T) {
	root := testRoot(t, false)
	files := inFolder("", folderFiles(t, root, "assignments/aufgabe5"))
	files[gradedDir+"table.go"] = "package aufgabe5\n\nfunc table() *[64 << 20]byte { return &[64 << 20]byte{64<<20 - 1: 1} }\n"
	dir := t.TempDir()
	writeTree(t, dir, files)
	rep := gradeFolder(t, root, dir, options{part: "A5.1", timeout: 100 * time.Millisecond})
	var text strings.Builder
	printReport(&text, rep)
	if rep.Status != "timeout" {
		t.Fatalf("status %q, want timeout:\n%s", rep.Status, text.String())
	}
	if !strings.Contains(text.String(), noCompile) || strings.Contains(text.String(), "Tests that earned no points") {
		t.Errorf("the report of a compile that ran out of time does not say so:\n%s", text.String())
	}
	if got, want := reportNote(rep), "time ran out while the code was compiled"; got != want {
		t.Errorf("gradebook note %q, want %q", got, want)
	}
}
