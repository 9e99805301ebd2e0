package zab

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"zablab/internal/wait"
)

// Issue 7's bug 4: after snapshot k the runtime calls
// Store.Compact(prev), so at most two own snapshots remain. The snapshotter
// learns prev from the snapshot it restores on Startup: a peer restarted
// after each snapshot must still compact its snapshots and log files.
func TestAtMostTwoOwnSnapshotsAcrossRestarts(t *testing.T) {
	dir := t.TempDir()
	total := 0
	for run := 0; run < 4; run++ {
		before := files(t, dir, "snapshot.*")
		z, app, _ := single(t, dir, 5)
		wait.For(t, "leading", 5*time.Second, func() bool { _, s := app.snapshot(); return s == Leading })
		for i := 0; i < 6; i++ { // one snapshot per run
			if _, err := z.Propose([]byte(fmt.Sprintf("r%dm%d", run, i))); err != nil {
				t.Fatal(err)
			}
			total++
			n := total
			wait.For(t, "delivery", 5*time.Second, func() bool { got, _ := app.snapshot(); return len(got) == n })
		}
		// The snapshot lands, then compaction removes what precedes the
		// previous one; a peer that does not compact times out here.
		wait.For(t, fmt.Sprintf("run %d: a new snapshot and at most two in all", run), 5*time.Second, func() bool {
			now := files(t, dir, "snapshot.*")
			return len(now) > 0 && !slices.Contains(before, now[len(now)-1]) && len(now) <= 2
		})
		if err := z.Shutdown(); err != nil {
			t.Fatal(err)
		}
	}
	snaps, logs := files(t, dir, "snapshot.*"), files(t, dir, "log.*")
	// Log files wholly below the older snapshot must be gone: at most one
	// starts at or below it (it may hold entries after it).
	below := 0
	for _, l := range logs {
		if l[len("log."):] <= snaps[0][len("snapshot."):] {
			below++
		}
	}
	if below > 1 {
		t.Fatalf("%d log files start at or below the oldest snapshot %s: the log was not compacted (%v)", below, snaps[0], logs)
	}
}

// files lists the base names in dir matching pattern, sorted (zxid names
// are fixed-width hex, so by zxid).
func files(t *testing.T, dir, pattern string) []string {
	t.Helper()
	ps, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range ps {
		out = append(out, filepath.Base(p))
	}
	slices.Sort(out)
	return out
}
