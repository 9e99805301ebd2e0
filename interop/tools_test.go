package interop

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	"zablab/internal/procs"
)

// Where Debian's packages put the clients.
const (
	zkCliPath = "/usr/share/zookeeper/bin/zkCli.sh" // package zookeeper
	cliMtPath = "/usr/lib/zookeeper/bin/cli_mt"     // package zookeeper-bin
	python3   = "/usr/bin/python3"                  // with package python3-kazoo
)

// need skips the test (fails it with ZABLAB_INTEROP_REQUIRED=1) when check
// says the tool is missing, naming the Debian package that brings it.
func need(t *testing.T, what, pkg string, check func() error) {
	t.Helper()
	err := check()
	if err == nil {
		return
	}
	msg := what + " missing (" + err.Error() + "); on Debian: apt-get install " + pkg
	if os.Getenv("ZABLAB_INTEROP_REQUIRED") == "1" {
		t.Fatal(msg + " (ZABLAB_INTEROP_REQUIRED=1)")
	}
	t.Skip(msg)
}

// executable is a check for need: path exists and is executable.
func executable(path string) func() error {
	return func() error {
		_, err := exec.LookPath(path)
		return err
	}
}

// run runs a client with stdin and returns its combined output and exit
// status; a client that cannot start or takes longer than d fails the
// test with its output. (zkCli.sh exits 1 when its last command failed.)
func run(t *testing.T, d time.Duration, stdin string, name string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := procs.CommandContext(ctx, name, args...) // zkCli.sh's java goes with it
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	t.Logf("%s: %v, %v", name, err, time.Since(start).Round(time.Millisecond))
	var ee *exec.ExitError
	if ctx.Err() != nil || (err != nil && !errors.As(err, &ee)) {
		t.Fatalf("%s %s: %v (%v); output:\n%s", name, strings.Join(args, " "), err, ctx.Err(), out.String())
	}
	return out.String(), cmd.ProcessState.ExitCode()
}

// inOrder checks that out has every one of wants, each after the one
// before it, and names the first one missing.
func inOrder(t *testing.T, client, out string, wants ...string) {
	t.Helper()
	rest := out
	for i, w := range wants {
		j := strings.Index(rest, w)
		if j < 0 {
			t.Fatalf("%s: output lacks %q (check %d of %d) after the checks before it; output:\n%s",
				client, w, i+1, len(wants), out)
		}
		rest = rest[j+len(w):]
	}
}
