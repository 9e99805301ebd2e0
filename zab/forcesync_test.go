package zab

import (
	"errors"
	"strings"
	"testing"

	"zablab/properties"
	"zablab/zab/storage"
)

func TestForceSyncKey(t *testing.T) {
	dir := t.TempDir()
	load := func(body string) (Config, error) { return ConfigFromProperties(peerFile(t, dir, body), true) }
	for body, skip := range map[string]bool{"": false, "forceSync=yes\n": false, "forceSync=no\n": true,
		"forceSync=no \n": true, "forceSync=yes\t\n": false} { // an invisible blank, as after tickTime, is no error
		c, err := load(body)
		if err != nil || c.SkipFsync != skip {
			t.Errorf("%q: SkipFsync %v, %v; want %v", body, c.SkipFsync, err, skip)
		}
	}
	for _, body := range []string{"forceSync=false\n", "forceSync=No\n", "forceSync=\n"} {
		_, err := load(body)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "forceSync") || !strings.Contains(err.Error(), "peer1.properties") {
			t.Errorf("%q: %v; want ErrConfig naming the file and forceSync", body, err)
		}
	}
}

// A peer with forceSync=no delivers without a single fsync of its log; by
// default every delivery waited for one.
func TestForceSyncNoReachesTheLog(t *testing.T) {
	for _, skip := range []bool{false, true} {
		var fl *storage.FileLog
		openStore = func(logDir, snapDir string) (*storage.Store, error) {
			st, err := storage.OpenFileStore(logDir, snapDir)
			if err == nil {
				fl = st.Log.(*storage.FileLog)
			}
			return st, err
		}
		t.Cleanup(func() { openStore = storage.OpenFileStore })
		p, err := properties.LoadString("dataLogDir=" + t.TempDir() + "\ntickTime=10\n")
		if err != nil {
			t.Fatal(err)
		}
		if skip {
			p.Set(KeyForceSync, "no")
		}
		z, err := NewSingleZab(&recorder{}, p)
		if err != nil {
			t.Fatal(err)
		}
		if err := z.Startup(); err != nil {
			t.Fatal(err)
		}
		fill(t, z, z.cb.(*recorder), 5)
		n := fl.Fsyncs()
		if err := z.Shutdown(); err != nil {
			t.Fatal(err)
		}
		if skip && n != 0 || !skip && n < 5 {
			t.Errorf("forceSync=no %v: %d fsyncs for 5 deliveries one at a time", skip, n)
		}
	}
}

// ZooKeeper's system-property spelling of a known key is refused with a
// hint, not ignored: "zookeeper.forceSync=no" would otherwise leave the
// fsync on, unlike what its writer meant.
func TestZooKeeperPropertyNamesPointToTheKey(t *testing.T) {
	p, err := properties.LoadString("dataLogDir=log\nzookeeper.forceSync=no\n")
	if err != nil {
		t.Fatal(err)
	}
	_, err = ConfigFromProperties(p, true)
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), `did you mean "forceSync"`) {
		t.Errorf("zookeeper.forceSync=no: %v; want ErrConfig pointing to forceSync", err)
	}
}
