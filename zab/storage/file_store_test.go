package storage

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"zablab/zab/core"
)

func TestOpenFileStoreCreatesFolders(t *testing.T) {
	base := t.TempDir()
	logDir, snapDir := filepath.Join(base, "a", "log"), filepath.Join(base, "b", "snap")
	s, err := OpenFileStore(logDir, snapDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{logDir, snapDir} {
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o755&^umask(t) {
			t.Errorf("%s: %v, %v", dir, fi, err)
		}
	}
	rd := &core.Ready{
		Entries: testEntries(1, 1, 5),
		Stable:  &core.StableState{AcceptedEpoch: 1, CurrentEpoch: 1},
	}
	if err := s.Persist(rd); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = OpenFileStore(logDir, snapDir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, snap, err := s.Restore()
	if err != nil || snap != nil {
		t.Fatalf("Restore = %v, %v", snap, err)
	}
	want := core.Restored{Stable: *rd.Stable, Entries: rd.Entries}
	if d := cmp.Diff(want, r); d != "" {
		t.Errorf("Restore -want +got:\n%s", d)
	}
}

// umask returns the process umask without changing it for good.
func umask(t *testing.T) os.FileMode {
	dir := filepath.Join(t.TempDir(), "probe")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	return 0o777 &^ fi.Mode().Perm()
}

// openSmallStore opens file stores whose log rotates every few entries.
func openSmallStore(t testing.TB, logDir, snapDir string) *Store {
	t.Helper()
	lg := openLog(t, logDir, smallFiles)
	st, err := OpenFileStable(snapDir)
	if err != nil {
		t.Fatal(err)
	}
	return &Store{Log: lg, Stable: st, Snapshots: openSnaps(t, snapDir, 3)}
}

// readyGen produces a plausible sequence of Ready values: appends with
// increasing zxids, new epochs, truncations, snapshots (some below the
// previous one), stable-state updates.
type readyGen struct {
	rng     *rand.Rand
	epoch   uint32
	counter uint32
	log     []core.Zxid // what the oracle's log holds, for picking cut points
	snap    core.Zxid   // the newest snapshot
}

// entries proposes n entries after the history's last point. As in Zab, a
// history has no holes: after a cut below the counter, the entries come
// from a new leader, in a new epoch starting at counter 1.
func (g *readyGen) entries(n int) []core.Entry {
	last := g.snap
	if len(g.log) > 0 {
		last = max(last, g.log[len(g.log)-1])
	}
	if n > 0 && last != core.NewZxid(g.epoch, g.counter) && (last.Epoch() == g.epoch || g.counter > 0) {
		g.epoch++
		g.counter = 0
	}
	es := make([]core.Entry, n)
	for i := range es {
		g.counter++
		z := core.NewZxid(g.epoch, g.counter)
		es[i] = core.Entry{Zxid: z, Timestamp: int64(z), Proposer: g.rng.Uint64N(5), Seq: uint64(g.counter)}
		if g.rng.IntN(4) > 0 {
			es[i].Data = fmt.Appendf(nil, "txn %v %d", z, g.rng.Uint32())
		}
		g.log = append(g.log, z)
	}
	return es
}

// cutPoint picks a zxid at or below the log's last one, or zero.
func (g *readyGen) cutPoint() core.Zxid {
	if len(g.log) == 0 || g.rng.IntN(10) == 0 {
		return 0
	}
	return g.log[g.rng.IntN(len(g.log))]
}

func (g *readyGen) truncate(z core.Zxid) {
	for len(g.log) > 0 && g.log[len(g.log)-1] > z {
		g.log = g.log[:len(g.log)-1]
	}
}

func (g *readyGen) next() *core.Ready {
	rd := &core.Ready{}
	switch op := g.rng.IntN(10); {
	case op < 5:
		rd.Entries = g.entries(1 + g.rng.IntN(12))
	case op < 6: // a new leader: truncate, then its proposals
		g.epoch++
		g.counter = 0
		z := g.cutPoint()
		g.truncate(z)
		rd.Truncate = &z
		rd.Stable = &core.StableState{AcceptedEpoch: g.epoch, CurrentEpoch: g.epoch}
		rd.Entries = g.entries(g.rng.IntN(5))
	case op < 8: // a snapshot of delivered state, maybe with entries after it
		z := g.cutPoint()
		if g.rng.IntN(3) == 0 { // SNAP from a leader ahead of us
			g.counter += 1 + g.rng.Uint32N(5)
			z = core.NewZxid(g.epoch, g.counter)
		}
		g.truncate(z)
		g.snap = z
		rd.Snapshot = &core.Snapshot{Meta: core.SnapshotMeta{Zxid: z, Timestamp: int64(z)}, Data: fmt.Appendf(nil, "state %v", z)}
		rd.Entries = g.entries(g.rng.IntN(3))
	case op < 9:
		rd.Stable = &core.StableState{AcceptedEpoch: g.epoch + 1, CurrentEpoch: g.epoch}
	default:
		z := g.cutPoint()
		g.truncate(z)
		rd.Truncate = &z
	}
	return rd
}

func restore(t *testing.T, s *Store) (core.Restored, *core.Snapshot) {
	t.Helper()
	r, snap, err := s.Restore()
	if err != nil {
		t.Fatalf("Restore: %v", err)
	}
	return r, snap
}

// TestFileStoreMatchesMemStore applies the same Ready sequence to file stores
// and to the in-memory store and checks that both restore the same state,
// also after the file stores are closed and reopened.
func TestFileStoreMatchesMemStore(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			logDir, snapDir := t.TempDir(), t.TempDir()
			file, mem := openSmallStore(t, logDir, snapDir), NewMemStore()
			defer func() { file.Log.Close() }()
			g := &readyGen{rng: rand.New(rand.NewPCG(seed, 99)), epoch: 1}
			maxFiles := 0
			for step := 0; step < 150; step++ {
				rd := g.next()
				if err := mem.Persist(rd); err != nil {
					t.Fatal(err)
				}
				if err := file.Persist(rd); err != nil {
					t.Fatalf("step %d: Persist: %v", step, err)
				}
				if g.rng.IntN(8) == 0 {
					r, _ := restore(t, mem)
					if err := file.Log.(*FileLog).RemoveBefore(r.Snapshot.Zxid); err != nil {
						t.Fatal(err)
					}
				}
				if g.rng.IntN(5) == 0 {
					if err := file.Log.Close(); err != nil {
						t.Fatal(err)
					}
					file = openSmallStore(t, logDir, snapDir)
				}
				maxFiles = max(maxFiles, len(logFiles(t, logDir)))
				wantR, wantSnap := restore(t, mem)
				gotR, gotSnap := restore(t, file)
				if d := cmp.Diff(wantR, gotR, cmpOpts); d != "" {
					t.Fatalf("step %d: Restored -mem +file:\n%s", step, d)
				}
				if d := cmp.Diff(wantSnap, gotSnap, cmpOpts); d != "" {
					t.Fatalf("step %d: snapshot -mem +file:\n%s", step, d)
				}
			}
			if maxFiles < 3 {
				t.Errorf("the run used at most %d log files; it should exercise rotation", maxFiles)
			}
		})
	}
}
