package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zablab/internal/ports"
	"zablab/internal/procs"
)

// TestStartFailuresExitOne: exit status 2 says the file (or the command
// line) is wrong as written, so running it again is pointless; 1 says the
// start failed on something outside the file, a port or a data folder
// another process holds, and the same command may succeed later
// (docs/operations.md). A taken client or admin port exited 2, a taken
// Zab port or a data folder in use 1.
func TestStartFailuresExitOne(t *testing.T) {
	needSolution(t)
	dir := t.TempDir()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	pp, err := ports.Free(3)
	if err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(dir, "afile")
	os.WriteFile(notDir, []byte("x"), 0o644)
	cases := []struct{ name, props, want string }{
		{"client port in use", fmt.Sprintf("clientPort=%d\ndataLogDir=d1\n", port), `key "clientPort"`},
		{"admin port in use", fmt.Sprintf("clientPort=%d\nadmin.serverPort=%d\ndataLogDir=d2\n", pp[0], port), `key "admin.serverPort"`},
		{"Zab port in use", fmt.Sprintf("clientPort=%d\ndataLogDir=d3\npeer1=127.0.0.1:%d\npeer2=127.0.0.1:%d\n", pp[1], port, pp[2]),
			`key "peer1"`},
		{"dataLogDir a file", fmt.Sprintf("clientPort=%d\ndataLogDir=%s\n", pp[1], notDir), "dataLogDir=" + notDir + ": "},
	}
	for _, c := range cases {
		file := filepath.Join(dir, "p.properties")
		os.WriteFile(file, []byte("myid=1\n"+c.props), 0o644)
		out, err := procs.Run(exec.Command(serverBin, "--config", file), time.Minute)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), c.want) {
			t.Errorf("%s: exit %v, output %q; want code 1 and an error naming %s", c.name, err, out, c.want)
		}
	}
}

// TestMalformedAddressExitsTwo: an address that is wrong as written (a
// clientPortAddress or admin.serverAddress with a port in it) is a file
// that no rerun fixes, so it exits 2 (docs/operations.md), as it did before
// a failed listen became ErrListen; it exited 1 like a taken port (the
// listen took "127.0.0.1:80" for a host name that does not resolve).
func TestMalformedAddressExitsTwo(t *testing.T) {
	needSolution(t)
	dir := t.TempDir()
	pp, err := ports.Free(2)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, props string }{
		{"clientPortAddress with a port", fmt.Sprintf("clientPort=%d\nclientPortAddress=127.0.0.1:%d\ndataLogDir=d1\n", pp[0], pp[1])},
		{"admin.serverAddress with a port", fmt.Sprintf("clientPort=%d\nadmin.serverPort=%d\nadmin.serverAddress=127.0.0.1:80\ndataLogDir=d2\n", pp[0], pp[1])},
	}
	for _, c := range cases {
		file := filepath.Join(dir, "p.properties")
		os.WriteFile(file, []byte("myid=1\n"+c.props), 0o644)
		out, err := procs.Run(exec.Command(serverBin, "--config", file), time.Minute)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("%s: exit %v, output %q; want code 2 (the file is wrong as written)", c.name, err, out)
		}
	}
}
