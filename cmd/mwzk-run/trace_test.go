package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFreshTracesRemovesOnlyThisEnsemblesTraces: --trace-dir starts each
// run's picture afresh, without touching other files in the folder.
func TestFreshTracesRemovesOnlyThisEnsemblesTraces(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "trace")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"peer1.trace", "peer2.trace", "peer9.trace", "run.html"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	peers := []peerFile{{name: "peer1", file: "ens/peer1.properties"}, {name: "peer2", file: "ens/peer2.properties"}}
	if err := freshTraces(dir, peers); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]bool{"peer1.trace": false, "peer2.trace": false, "peer9.trace": true, "run.html": true} {
		if _, err := os.Stat(filepath.Join(dir, f)); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", f, err == nil, want)
		}
	}
	if err := freshTraces(filepath.Join(t.TempDir(), "new", "dir"), peers); err != nil {
		t.Fatalf("a trace folder that does not exist yet: %v", err)
	}
}
