package zab

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"zablab/internal/ports"
	"zablab/internal/wait"
	"zablab/zab/storage"
)

// TestPeerOfAnotherKindRefusesTheData: a student's make run while newZab
// still gave SingleZab left each replica a log of its own (entries 1 to
// 3, different on each); started again as MultiZab, the three elected a
// leader, found the same last zxid everywhere, synced nothing and served
// three different trees. A peer now refuses data another kind of peer
// wrote, naming the folder; the same kind opens it as before.
func TestPeerOfAnotherKindRefusesTheData(t *testing.T) {
	dir := t.TempDir()
	z, app, _ := single(t, dir, 1000)
	fill(t, z, app, 3)
	if err := z.Shutdown(); err != nil {
		t.Fatal(err)
	}
	m, _ := loneEnsemble(t, dir, "")
	err := m.Startup()
	if err == nil {
		m.Shutdown()
		t.Fatal("a MultiZab started from a SingleZab's data")
	}
	if !errors.Is(err, ErrStorage) || !errors.Is(err, storage.ErrOtherKind) ||
		!strings.Contains(err.Error(), "dataLogDir="+dir) || !strings.Contains(err.Error(), "a replica on its own (SingleZab)") {
		t.Errorf("Startup of a MultiZab on a SingleZab's data: %v, want ErrStorage and ErrOtherKind naming dataLogDir=%s and SingleZab", err, dir)
	}
	z, app, _ = single(t, dir, 1000) // the same kind: as before
	wait.For(t, "the 3 messages delivered again", 5*time.Second, func() bool { got, _ := app.snapshot(); return len(got) == 3 })
	if err := z.Shutdown(); err != nil {
		t.Fatal(err)
	}
}

// loneEnsemble builds (does not start) a MultiZab of one peer on the
// given folders ("" snapDir: the log's).
func loneEnsemble(t *testing.T, logDir, snapDir string) (*MultiZab, *recorder) {
	t.Helper()
	port, err := ports.Free(1)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	cfg := Config{ID: 1, DataLogDir: logDir, DataSnapDir: snapDir, TickTime: 10 * time.Millisecond, InitLimit: 10, SyncLimit: 5,
		SnapCount: 100, Logger: quietLogger(), Peers: []Peer{{ID: 1, Addr: "127.0.0.1:" + strconv.Itoa(port[0])}}}
	m, err := NewMultiZabFromConfig(rec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m, rec
}

// TestPeerOfAnotherKindRefusesTheLogFolder: the history a peer restores is
// its log. A SingleZab's dataLogDir beside a new dataSnapDir (a snapshots'
// folder removed by hand, a changed key) started as an ensemble's peer and
// delivered the lone replica's entries while the record sat in the
// snapshots' folder alone (a review's test); both folders keep it now.
func TestPeerOfAnotherKindRefusesTheLogFolder(t *testing.T) {
	for _, sameSnap := range []bool{true, false} {
		t.Run(fmt.Sprintf("singleSnapIsLogDir=%v", sameSnap), func(t *testing.T) {
			base := t.TempDir()
			logDir := filepath.Join(base, "log")
			snapDir := logDir
			if !sameSnap {
				snapDir = filepath.Join(base, "snap")
			}
			z, app, _ := singleIn(t, logDir, snapDir, 1000)
			fill(t, z, app, 3)
			if err := z.Shutdown(); err != nil {
				t.Fatal(err)
			}
			m, _ := loneEnsemble(t, logDir, filepath.Join(base, "snap2"))
			if err := m.Startup(); !errors.Is(err, storage.ErrOtherKind) || !strings.Contains(err.Error(), "dataLogDir="+logDir) {
				if err == nil {
					m.Shutdown()
				}
				t.Errorf("a MultiZab on a SingleZab's dataLogDir %s with a new dataSnapDir: Startup = %v, want ErrOtherKind naming dataLogDir", logDir, err)
			}
		})
	}
}

// TestFailedFirstStartLeavesNoKind: a MultiZab whose first Startup failed
// after the kind was recorded (its port taken) left only peerkind; a
// SingleZab on that folder was refused as if it held an ensemble's log (a
// review's test). An empty store takes the kind that opens it.
func TestFailedFirstStartLeavesNoKind(t *testing.T) {
	dir := t.TempDir()
	m, _ := loneEnsemble(t, dir, "")
	ln, err := net.Listen("tcp", m.cfg.addr(1))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := m.Startup(); err == nil {
		m.Shutdown()
		t.Fatal("a MultiZab started on a taken port")
	}
	if _, err := os.Stat(filepath.Join(dir, "peerkind")); err != nil {
		t.Fatalf("the failed start recorded no kind (%v): this test no longer tests the empty store", err)
	}
	z, _, _ := single(t, dir, 1000)
	if err := z.Shutdown(); err != nil {
		t.Fatal(err)
	}
}
