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
// student's business, not the grade's.
func compileSuite(ctx context.Context, t *tree) (string, error) {
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
		return "", fmt.Errorf("%w:\n%s", errCompile, strings.TrimSpace(strings.ReplaceAll(out.String(), t.dir+"/", "")))
	}
	return bin, nil
}
