package zab

import (
	"os"
	"path/filepath"
	"testing"

	"zablab/properties"
)

// TestSnapDirDefaultsToTheLogFolder: without dataSnapDir the snapshots go
// into the log folder, also for a peer file given by a relative path with
// a folder in it (mwzk-server conf/peer1.properties). The log folder was
// once resolved against the file's folder a second time: conf/conf/log1.
func TestSnapDirDefaultsToTheLogFolder(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.MkdirAll("conf", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ text, log, snap string }{
		{"dataLogDir=log1\n", "conf/log1", "conf/log1"},
		{"dataLogDir=log1\ndataSnapDir=snap1\n", "conf/log1", "conf/snap1"},
		{"dataLogDir=log1\ndataSnapDir= \n", "conf/log1", "conf/log1"},
	} {
		if err := os.WriteFile("conf/peer1.properties", []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := properties.LoadFile("conf/peer1.properties")
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := ConfigFromProperties(p, true)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Close()
		if filepath.Clean(cfg.DataLogDir) != c.log || filepath.Clean(cfg.DataSnapDir) != c.snap {
			t.Errorf("%q: log folder %q, snapshots %q; want %q and %q", c.text, cfg.DataLogDir, cfg.DataSnapDir, c.log, c.snap)
		}
	}
}
