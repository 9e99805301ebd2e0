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

// graderTestFile is the grader's test file in gradedDir: it runs the suite.
const graderTestFile = "conformance_test.go"

// errNoSuite: the grading copy has no test to run.
var errNoSuite = errors.New("no test file")

// suitePkg is the package whose test binary runs the suite.
const suitePkg = "./" + gradedDir

// compileSuite builds the suite's test binary in t. -trimpath keeps the
// build cache's entries valid across the grading copies; vet is the
// student's business, not the grade's. The compiler's messages name sub's
// files as the hand-in has them.
func compileSuite(ctx context.Context, t *tree, sub *submission) (string, error) {
	bin := filepath.Join(t.dir, "conformance.test")
	cmd := exec.CommandContext(ctx, "go", "test", "-c", "-trimpath", "-vet=off", "-tags", "mwzk_extra", "-o", bin, suitePkg)
	cmd.Dir = t.dir
	// Static (no cgo): the sandbox's root has none of the host's libraries.
	cmd.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=0")
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
		return "", fmt.Errorf("%w:\n%s", errCompile, inHandIn(msg, sub))
	}
	if _, err := os.Stat(bin); err != nil {
		// go test -c writes nothing, and says nothing, for a package
		// without tests: the grader's own test file is gone from the tree.
		return "", fmt.Errorf("%s%s: %w: the grader's tests are missing from this tree; restore the file (a student: from the handout's tarball, or git checkout)",
			gradedDir, graderTestFile, errNoSuite)
	}
	return bin, nil
}

// inHandIn renames the graded files the compiler's lines start with
// (after their indent: a redeclaration names its second file on an
// indented line) to where the hand-in has them, as refusals name files: a
// student whose code sits in aufgabe5/assignments/aufgabe5/ finds the file
// a line names. The grader's own files there (conformance_test.go) keep
// the grading copy's path: the hand-in's copies are not the ones compiled.
func inHandIn(msg string, sub *submission) string {
	lines := strings.Split(msg, "\n")
	for k, l := range lines {
		body := strings.TrimLeft(l, " \t")
		rest, ok := strings.CutPrefix(body, gradedDir)
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, ":")
		if _, graded := sub.Files[name]; graded {
			lines[k] = l[:len(l)-len(body)] + sub.at(rest)
		}
	}
	return strings.Join(lines, "\n")
}
