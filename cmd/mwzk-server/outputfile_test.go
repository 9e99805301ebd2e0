package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zablab/internal/ports"
	"zablab/internal/procs"
)

// underAFile is a temporary folder, a regular file notDir in it (so that
// any path under notDir cannot be made) and a free port.
func underAFile(t *testing.T) (dir, notDir string, pp []int) {
	t.Helper()
	needSolution(t)
	dir = t.TempDir()
	notDir = filepath.Join(dir, "afile")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	pp, err := ports.Free(1)
	if err != nil {
		t.Fatal(err)
	}
	return dir, notDir, pp
}

// TestUnusableOutputFilesExitTwo: a log.file and a trace.file that cannot
// be opened (here: under a regular file) are the same mistake in the same
// file, and a rerun fixes neither. log.file exited 2 naming its key;
// trace.file exited 1 with "zab: bad configuration: trace.file: ...",
// which told a supervisor to restart a peer that can never start.
func TestUnusableOutputFilesExitTwo(t *testing.T) {
	dir, notDir, pp := underAFile(t)
	for _, key := range []string{"log.file", "trace.file"} {
		path := filepath.Join(notDir, "peer1.out")
		file := filepath.Join(dir, "p.properties")
		props := fmt.Sprintf("myid=1\nclientPort=%d\ndataLogDir=d\n%s=%s\n", pp[0], key, path)
		if err := os.WriteFile(file, []byte(props), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := procs.Run(exec.Command(serverBin, "--config", file), time.Minute)
		var ee *exec.ExitError
		want := fmt.Sprintf("p.properties:4: key %q", key)
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), want) || !strings.Contains(string(out), path) {
			t.Errorf("%s under a file: exit %v, output %q; want code 2 and an error naming %s and %s", key, err, out, want, path)
		}
	}
}

// TestUnusableTraceDirNamesTheFlag: --trace-dir sets trace.file, so a
// folder that cannot be made (here: under a regular file) was reported
// as "p.properties: key \"trace.file\": cannot open the trace file",
// sending the operator to a key the file does not have. The flag is the
// mistake, and the message names it, as it does for any other bad flag.
func TestUnusableTraceDirNamesTheFlag(t *testing.T) {
	dir, notDir, pp := underAFile(t)
	file := filepath.Join(dir, "p.properties")
	if err := os.WriteFile(file, []byte(fmt.Sprintf("myid=1\nclientPort=%d\ndataLogDir=d\n", pp[0])), 0o644); err != nil {
		t.Fatal(err)
	}
	traceDir := filepath.Join(notDir, "traces")
	out, err := procs.Run(exec.Command(serverBin, "--config", file, "--trace-dir", traceDir), time.Minute)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "--trace-dir "+traceDir) || strings.Contains(string(out), `key "trace.file"`) {
		t.Errorf("--trace-dir under a file: exit %v, output %q; want code 2 and an error naming --trace-dir %s, not the file's key trace.file", err, out, traceDir)
	}
}
