package zab

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zablab/zab/storage"
)

// TestStorageErrorsNameTheirKey: a peer that cannot use its data folders
// must say which key of its file to fix, as other start errors do; the
// error named only the path ("storage: create /x: …"), and with dataSnapDir
// defaulting to dataLogDir the operator could not tell which key it was.
func TestStorageErrorsNameTheirKey(t *testing.T) {
	base := t.TempDir()
	notDir := filepath.Join(base, "afile")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	held := filepath.Join(base, "held")
	holder, err := storage.OpenFileStore(held, held)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	badEpochs := filepath.Join(base, "badsnap")
	if err := os.MkdirAll(badEpochs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(badEpochs, "epochs"), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, logDir, snapDir, want string }{
		{"dataLogDir a file", notDir, "", "dataLogDir=" + notDir + ": "},
		{"dataSnapDir a file", filepath.Join(base, "log1"), notDir, "dataSnapDir=" + notDir + ": "},
		{"dataLogDir in use", held, filepath.Join(base, "snap2"), "dataLogDir=" + held + ": "},
		{"dataSnapDir in use", filepath.Join(base, "log3"), held, "dataSnapDir=" + held + ": "},
		{"epochs damaged", filepath.Join(base, "log4"), badEpochs, "dataSnapDir=" + badEpochs + ": "},
	}
	for _, c := range cases {
		cfg := Config{ID: 1, TickTime: 20 * time.Millisecond, InitLimit: 10, SyncLimit: 5,
			Logger: quietLogger(), DataLogDir: c.logDir, DataSnapDir: c.snapDir}
		z, err := NewSingleZabFromConfig(&recorder{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		err = z.Startup()
		z.Shutdown()
		if !errors.Is(err, ErrStorage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Startup: %v; want ErrStorage naming %q", c.name, err, c.want)
		}
	}
}
