package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestInterruptedGradeWritesNothing: a make grade stopped by Ctrl-C
// printed "TIMEOUT: grading was stopped after its time" and wrote a
// grade.json with status timeout and "grading did not finish within
// 15m0s" (a student's trial, after 12 s). An interrupted grading is no
// grade: it says so and leaves grade.json as it was.
func TestInterruptedGradeWritesNothing(t *testing.T) {
	testRoot(t, false)
	g := filepath.Join(t.TempDir(), "grade.json")
	const before = `{"status": "graded"}`
	if err := os.WriteFile(g, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Ctrl-C once the first of two runs has finished.
	var log strings.Builder
	out := &cancelAt{w: &log, line: "run 1/2: ", cancel: cancel}
	err := mainErr(ctx, []string{"--impl", "assignment", "--repeat", "2", "--json", g}, out)
	if !errors.Is(err, errInterrupted) || !strings.Contains(err.Error(), g+" is left as it was") {
		t.Errorf("mainErr of an interrupted grading = %v, want %v naming %s; output:\n%s", err, errInterrupted, g, log.String())
	}
	if got, _ := os.ReadFile(g); string(got) != before {
		t.Errorf("an interrupted grading rewrote %s:\n%s", g, got)
	}
	if strings.Contains(log.String(), "TIMEOUT") {
		t.Errorf("an interrupted grading reads as a timeout:\n%s", log.String())
	}
}

// cancelAt writes to w and cancels once a write holds line.
type cancelAt struct {
	mu     sync.Mutex
	w      io.Writer
	line   string
	cancel context.CancelFunc
}

func (c *cancelAt) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if strings.Contains(string(p), c.line) {
		c.cancel()
	}
	return c.w.Write(p)
}
