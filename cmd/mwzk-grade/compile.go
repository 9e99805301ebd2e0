package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// errCompile says the submission's code does not build.
var errCompile = errors.New("the submission does not compile")

// suitePkg is the package whose test binary runs the suite.
const suitePkg = "./" + gradedDir

// compileSuite builds the suite's test binary in t. -trimpath keeps the
// build cache's entries valid across the grading copies; vet is the
// student's business, not the grade's. at names a graded file as the
// hand-in has it, for the compiler's messages.
func compileSuite(ctx context.Context, t *tree, at func(string) string) (string, error) {
	bin := filepath.Join(t.dir, "conformance.test")
	cmd := exec.CommandContext(ctx, "go", "test", "-c", "-trimpath", "-vet=off", "-tags", "mwzk_extra", "-o", bin, suitePkg)
	cmd.Dir = t.dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	inGroup(cmd)
	cmd.Cancel = func() error { killGroup(cmd); return nil }
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	killGroup(cmd)
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if err != nil {
		msg := strings.TrimSpace(strings.ReplaceAll(out.String(), t.dir+"/", ""))
		return "", fmt.Errorf("%w:\n%s", errCompile, inHandIn(msg, at))
	}
	return bin, nil
}

// inHandIn renames the graded folder at the start of each of the
// compiler's lines to where the hand-in has it, as refusals name files: a
// student whose code sits in aufgabe5/assignments/aufgabe5/ finds
// the file the line names.
func inHandIn(msg string, at func(string) string) string {
	lines := strings.Split(msg, "\n")
	for k, l := range lines {
		if rest, ok := strings.CutPrefix(l, gradedDir); ok {
			lines[k] = at(rest)
		}
	}
	return strings.Join(lines, "\n")
}
