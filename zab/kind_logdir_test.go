package zab

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"zablab/internal/ports"
	"zablab/internal/wait"
	"zablab/properties"
	"zablab/zab/storage"
)

// TestPeerOfAnotherKindRefusesTheLogFolder: peerkind lives in dataSnapDir,
// but the history a peer restores is mostly its log in dataLogDir. A
// SingleZab's dataLogDir reused by a MultiZab whose dataSnapDir is a new
// folder (a changed dataDir, a snapshot folder removed by hand) must be
// refused as the whole folder is: the ensemble would start from the lone
// replica's entries.
func TestPeerOfAnotherKindRefusesTheLogFolder(t *testing.T) {
	for _, sameSnap := range []bool{true, false} {
		t.Run(fmt.Sprintf("singleSnapIsLogDir=%v", sameSnap), func(t *testing.T) {
			base := t.TempDir()
			logDir := filepath.Join(base, "log")
			snapDir := logDir
			if !sameSnap {
				snapDir = filepath.Join(base, "snap")
			}
			p, err := properties.LoadString(fmt.Sprintf("dataLogDir=%s\ndataSnapDir=%s\nsnapCount=1000\ntickTime=10\n", logDir, snapDir))
			if err != nil {
				t.Fatal(err)
			}
			z, err := NewSingleZab(&recorder{}, p)
			if err != nil {
				t.Fatal(err)
			}
			lg, _ := logtest.NewNullLogger()
			z.cfg.Logger, z.lg = lg, lg.WithField("peer", 1)
			app := z.cb.(*recorder)
			if err := z.Startup(); err != nil {
				t.Fatal(err)
			}
			fill(t, z, app, 3)
			if err := z.Shutdown(); err != nil {
				t.Fatal(err)
			}
			port, err := ports.Free(1)
			if err != nil {
				t.Fatal(err)
			}
			rec := &recorder{}
			cfg := Config{ID: 1, DataLogDir: logDir, DataSnapDir: filepath.Join(base, "snap2"), TickTime: 10 * time.Millisecond, InitLimit: 10, SyncLimit: 5,
				SnapCount: 100, Logger: quietLogger(), Peers: []Peer{{ID: 1, Addr: "127.0.0.1:" + strconv.Itoa(port[0])}}}
			m, err := NewMultiZabFromConfig(rec, cfg)
			if err != nil {
				t.Fatal(err)
			}
			err = m.Startup()
			if err != nil {
				if !errors.Is(err, storage.ErrOtherKind) {
					t.Logf("refused for another reason: %v", err)
				}
				return
			}
			defer m.Shutdown()
			wait.For(t, "the ensemble of one leading", 5*time.Second, func() bool { _, s := rec.snapshot(); return s == Leading })
			got, _ := rec.snapshot()
			t.Errorf("a MultiZab started from a SingleZab's dataLogDir %s (dataSnapDir a new folder) and delivered the lone replica's entries %q", logDir, got)
		})
	}
}
