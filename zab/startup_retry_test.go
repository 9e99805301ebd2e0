package zab

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"zablab/properties"
)

// A failed Startup leaves the log output ConfigFromProperties opened open:
// a retried Startup still logs to it, and Shutdown closes it (also when
// no Startup ever succeeded).
func TestRetriedStartupStillLogs(t *testing.T) {
	dir := t.TempDir()
	data, logFile := filepath.Join(dir, "data"), filepath.Join(dir, "zab.log")
	if err := os.WriteFile(data, []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := properties.LoadString(fmt.Sprintf("dataLogDir=%s\ntickTime=10\nlog.file=%s\n", data, logFile))
	if err != nil {
		t.Fatal(err)
	}
	z, err := NewSingleZab(&recorder{}, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := z.Startup(); err == nil {
		t.Fatal("Startup succeeded with dataLogDir a file")
	}
	if err := os.Remove(data); err != nil {
		t.Fatal(err)
	}
	if err := z.Startup(); err != nil {
		t.Fatalf("retried Startup: %v", err)
	}
	if err := z.Shutdown(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "peer started") {
		t.Fatalf("the retried Startup logged nothing to %s (log output closed by the failed one?):\n%s", logFile, b)
	}
	if err := z.cfg.logFile.Close(); err != nil { // closed once by Shutdown: the same answer again
		t.Fatalf("log output after Shutdown: %v", err)
	}
}

// Shutdown after a failed Startup closes the log output and ends the peer.
func TestShutdownAfterFailedStartupClosesLog(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.WriteFile(data, []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := properties.LoadString(fmt.Sprintf("dataLogDir=%s\nlog.file=%s\n", data, filepath.Join(dir, "zab.log")))
	if err != nil {
		t.Fatal(err)
	}
	z, err := NewSingleZab(&recorder{}, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := z.Startup(); err == nil {
		t.Fatal("Startup succeeded with dataLogDir a file")
	}
	if err := z.Shutdown(); err != nil {
		t.Fatal(err)
	}
	if _, err := z.Propose([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Fatalf("Propose after Shutdown: %v, want ErrClosed", err)
	}
	f := z.cfg.logFile.c.(*os.File)
	if _, err := f.Write([]byte("x")); err == nil {
		t.Fatal("the log output is still open after Shutdown")
	}
}
