package zab

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/internal/wait"
	"zablab/zab/storage"
)

// smallFileStores makes every store the test opens use tiny log files, so
// that rotation and the removal of old files happen after a few entries.
func smallFileStores(t *testing.T, maxFile int64) {
	openStore = func(logDir, snapDir string) (*storage.Store, error) {
		lg, err := storage.OpenFileLog(logDir, storage.FileLogOptions{MaxFileBytes: maxFile, PreallocBytes: -1})
		if err != nil {
			return nil, err
		}
		st, err := storage.OpenFileStable(snapDir)
		if err != nil {
			lg.Close()
			return nil, err
		}
		sn, err := storage.OpenFileSnapshots(snapDir, 3)
		if err != nil {
			lg.Close()
			return nil, err
		}
		return &storage.Store{Log: lg, Stable: st, Snapshots: sn}, nil
	}
	t.Cleanup(func() { openStore = storage.OpenFileStore })
}

// follower returns a running peer that is not the leader.
func (e *ensemble) follower() int {
	l := e.leader()
	for i := range e.zabs {
		if e.zabs[i] != nil && i+1 != l {
			return i + 1
		}
	}
	return 0
}

func (e *ensemble) proposeMany(prefix string, n int) []string {
	e.t.Helper()
	var out []string
	for k := 0; k < n; k++ {
		m := fmt.Sprintf("%s%d", prefix, k)
		l := e.leader()
		if l == 0 {
			e.t.Fatal("no leader")
		}
		if _, err := e.zabs[l-1].Propose([]byte(m)); err != nil {
			e.t.Fatalf("propose %s: %v", m, err)
		}
		out = append(out, m)
	}
	return out
}

func testLaggingFollower(t *testing.T, snapCount, behind int) {
	smallFileStores(t, 2048)
	e := newEnsemble(t, 3)
	for i := range e.cfgs {
		e.cfgs[i].SnapCount = snapCount
		if os.Getenv("REVC_DBG") != "" {
			l := logrus.New()
			l.SetLevel(logrus.DebugLevel)
			e.cfgs[i].Logger = l
		}
	}
	defer e.stopAll()
	e.startAll()
	e.commit(e.leader(), "first")
	f := e.follower()
	e.stop(f)
	msgs := e.proposeMany("lag", behind)
	wait.For(t, "the two running peers deliver everything", 30*time.Second, func() bool { return e.allHave(msgs...) })
	e.start(f)
	last := e.commit(e.leader(), "after")
	wait.For(t, "the returning follower catches up", 30*time.Second, func() bool { return e.allHave(append(msgs, last)...) })
	e.agree()
}

// A follower more than KeepEntries behind gets DIFF whose data the leader
// reads back from its (rotated) log files.
func TestLaggingFollowerDiffFromRotatedLog(t *testing.T) {
	testLaggingFollower(t, 100000, 1200)
}

// With snapshots (and log files removed below the previous one) the
// follower is brought level by SNAP plus what follows.
func TestLaggingFollowerSnapWithCompaction(t *testing.T) {
	testLaggingFollower(t, 40, 1200)
}
