package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"zablab/internal/ports"
	"zablab/internal/procs"
	"zablab/internal/wait"
)

// TestSecondServerOnADataFolderIsRefused: a second mwzk-server pointed at a
// running peer's data folder (with ports of its own) exits at once,
// naming the folder and the holder's pid; after kill -9 of the holder the
// folder is free again (the lock is an flock, released with the process).
func TestSecondServerOnADataFolderIsRefused(t *testing.T) {
	needSolution(t)
	dir := t.TempDir()
	p := writePeers(t, dir, 1)[0]
	single := strings.ReplaceAll(mustRead(t, p.file), "peer1=", "#peer1=")
	os.WriteFile(p.file, []byte(single), 0o644)
	p.start(t)
	wait.For(t, "the peer to serve", 20*time.Second, func() bool { return p.state() == "standalone" })

	pp, err := ports.Free(1)
	if err != nil {
		t.Fatal(err)
	}
	intruder := filepath.Join(dir, "intruder.properties")
	other := strings.Replace(single, "clientPort=", "clientPort="+strconv.Itoa(pp[0])+"\n#was ", 1)
	os.WriteFile(intruder, []byte(other), 0o644)
	start := time.Now()
	out, err := procs.Run(exec.Command(serverBin, "--config", intruder), 20*time.Second)
	if errors.Is(err, procs.ErrDeadline) {
		t.Fatalf("the second server on %s: %v:\n%s", filepath.Join(dir, "data1"), err, out)
	}
	t.Logf("the second server exited after %v", time.Since(start).Round(time.Millisecond))
	folder := filepath.Join(dir, "data1", "log")
	if err == nil || !strings.Contains(string(out), folder) || !strings.Contains(string(out), "process "+strconv.Itoa(p.proc.Cmd.Process.Pid)) {
		t.Fatalf("second server: %v, output:\n%s\nwant a failure naming %s and pid %d", err, out, folder, p.proc.Cmd.Process.Pid)
	}
	if st := p.state(); st != "standalone" {
		t.Fatalf("the holder's state after the refused intruder: %q", st)
	}

	p.proc.Kill() // SIGKILL, as a crash
	again := &peer{id: p.id, file: p.file, client: p.client}
	again.start(t)
	wait.For(t, "the restarted peer to serve", 20*time.Second, func() bool { return again.state() == "standalone" })
}
