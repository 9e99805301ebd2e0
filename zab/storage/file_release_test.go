package storage

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"zablab/internal/wait"
	"zablab/zab/core"
)

// retiredFiles lists the files in dir still waiting to be released.
func retiredFiles(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		if strings.HasPrefix(de.Name(), releasePrefix) {
			out = append(out, de.Name())
		}
	}
	return out
}

// RemoveBefore leaves nothing behind: not the log files, not their
// retired names.
func TestRemoveBeforeReleasesEverything(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, smallFiles)
	defer closeLog(t, l)
	es := testEntries(1, 1, 60)
	writeLog(t, l, es)
	before := len(logFiles(t, dir))
	z := l.segs[3].first
	if err := l.RemoveBefore(z); err != nil {
		t.Fatal(err)
	}
	if got := len(logFiles(t, dir)); got != before-3 {
		t.Errorf("%d log files after RemoveBefore, want %d", got, before-3)
	}
	checkEntries(t, l, z, entriesAbove(es, z))
	wait.For(t, "the retired files released", 5*time.Second, func() bool { return len(retiredFiles(t, dir)) == 0 })
}

// A crash between retiring a file and releasing it leaves the retired
// name: the next opening removes it and does not read it as log.
func TestRetiredFilesOfACrashGoAtOpening(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, smallFiles)
	es := testEntries(1, 1, 60)
	writeLog(t, l, es)
	oldest := l.segs[0].path
	z := l.segs[1].first - 1
	closeLog(t, l)
	if _, _, err := retire(dir, []string{oldest}); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, releasePrefix+"log.00000001000000ff")
	if err := os.WriteFile(garbage, []byte("half released"), 0o644); err != nil {
		t.Fatal(err)
	}
	l = openLog(t, dir, smallFiles)
	defer closeLog(t, l)
	if r := retiredFiles(t, dir); len(r) != 0 {
		t.Errorf("retired files still there after opening: %v", r)
	}
	checkEntries(t, l, z, entriesAbove(es, z))
}

// release gives a file back in steps and then removes it; a file that is
// not there is an error naming it.
func TestReleaseRemovesTheFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, releasePrefix+"log.0000000100000001")
	if err := os.WriteFile(p, make([]byte, 2*releaseStep+10), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := release(p, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("after release: %v, want the file gone", err)
	}
	err := release(p, nil)
	if err == nil || !strings.Contains(err.Error(), p) {
		t.Fatalf("release of a missing file: %v, want an error naming %s", err, p)
	}
}

// fullSize makes the log files at segs as large as a full 64 MiB file
// (the rest zeros, as a crash before rotate's truncate leaves them; sparse,
// so the test stays cheap).
func fullSize(t *testing.T, segs []segment) {
	t.Helper()
	for _, seg := range segs {
		if err := os.Truncate(seg.path, defaultMaxFileBytes); err != nil {
			t.Fatal(err)
		}
	}
}

// A follower installs a received snapshot with Store.Persist on its
// protocol goroutine, which compacts the log below it: the pauses that
// give the old files back must not run there (from the review of the
// first version, which slept 600 ms here for four files).
func TestInstallingASnapshotDoesNotWaitForTheRelease(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, smallFiles)
	writeLog(t, l, testEntries(1, 1, 60))
	old := slices.Clone(l.segs[:4])
	closeLog(t, l)
	fullSize(t, old)
	s, err := OpenFileStore(dir, filepath.Join(dir, "snap"))
	if err != nil {
		t.Fatal(err)
	}
	installed := testSnapshot(2, 10)
	hold := make(chan struct{})
	releaseHold = hold
	t.Cleanup(func() { releaseHold = nil })
	done := make(chan error, 1)
	go func() {
		done <- s.Persist(&core.Ready{Snapshot: &installed, Stable: &core.StableState{AcceptedEpoch: 2, CurrentEpoch: 2}})
	}()
	select {
	case err := <-done:
		if err != nil {
			close(hold)
			t.Fatal(errors.Join(err, s.Close()))
		}
	case <-time.After(30 * time.Second):
		close(hold)
		t.Fatal("Persist of a snapshot over 4 x 64 MiB of old log waited for the release of the old files")
	}
	if got := len(logFiles(t, dir)); got != 1 {
		t.Errorf("%d log files left, want 1", got)
	}
	close(hold)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if r := retiredFiles(t, dir); len(r) != 0 {
		t.Errorf("retired files left after Close: %v", r)
	}
}

// Two RemoveBefore at once: neither returns before the files below z are
// durably out of the log (from the review: the second found nothing left
// to detach and returned while the first had not yet renamed them).
func TestConcurrentRemoveBeforeBothWaitForTheFiles(t *testing.T) {
	for iter := 0; iter < 200; iter++ {
		dir := t.TempDir()
		l := openLog(t, dir, smallFiles)
		writeLog(t, l, testEntries(1, 1, 60))
		z := l.segs[len(l.segs)-1].first
		var wg sync.WaitGroup
		start := make(chan struct{})
		left := make([][]string, 2)
		for i := range left {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if err := l.RemoveBefore(z); err != nil {
					t.Error(err)
					return
				}
				for _, name := range logFiles(t, dir) {
					if name < zxidName(logPrefix, z) {
						left[i] = append(left[i], name)
					}
				}
			}()
		}
		close(start)
		wg.Wait()
		closeLog(t, l)
		for i, names := range left {
			if len(names) > 0 {
				t.Fatalf("iteration %d: RemoveBefore(%v) number %d returned while %v were still log files", iter, z, i, names)
			}
		}
	}
}

// A rename that fails midway leaves the files not yet renamed in the log,
// so the next RemoveBefore removes them (from the second review: they
// were out of the log's list but still on disk until the next opening).
func TestFilesNotRetiredStayInTheLog(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, smallFiles)
	defer closeLog(t, l)
	es := testEntries(1, 1, 60)
	writeLog(t, l, es)
	z := l.segs[4].first
	// A folder where the second file's retired name goes makes its rename fail.
	block := filepath.Join(dir, releasePrefix+filepath.Base(l.segs[1].path))
	if err := os.Mkdir(block, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(block, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := l.RemoveBefore(z); err == nil || !strings.Contains(err.Error(), "remove log file") {
		t.Fatalf("RemoveBefore with a blocked rename: %v, want the rename's error", err)
	}
	checkEntries(t, l, z, entriesAbove(es, z))
	if err := os.RemoveAll(block); err != nil {
		t.Fatal(err)
	}
	if err := l.RemoveBefore(z); err != nil {
		t.Fatal(err)
	}
	for _, name := range logFiles(t, dir) {
		if name < zxidName(logPrefix, z) {
			t.Errorf("log file %s below %v is still there after a second RemoveBefore", name, z)
		}
	}
}

// A rename that is not durable may be lost in a crash, bringing the file
// back into the log: the releaser must not have cut it meanwhile. Such
// files wait, whole, for the next opening.
func TestRenamesNotDurableAreNotReleased(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, smallFiles)
	es := testEntries(1, 1, 60)
	writeLog(t, l, es)
	z := l.segs[3].first - 1 // the two oldest files lie wholly at or below z
	syncRetired = func(string) error { return errors.New("injected: the folder's fsync failed") }
	err := l.RemoveBefore(z)
	syncRetired = syncDir
	if err == nil {
		t.Fatal("RemoveBefore succeeded although the renames were not made durable")
	}
	l.release.mu.Lock()
	queued, running := len(l.release.queue), l.release.running
	l.release.mu.Unlock()
	retired := retiredFiles(t, dir)
	if queued != 0 || running || len(retired) != 2 {
		t.Fatalf("after a failed folder fsync: %d files queued for release (running %v), retired files on disk %v; want none queued and 2 whole files left",
			queued, running, retired)
	}
	closeLog(t, l)
	l = openLog(t, dir, smallFiles)
	defer closeLog(t, l)
	if r := retiredFiles(t, dir); len(r) != 0 {
		t.Errorf("retired files still there after opening: %v", r)
	}
	checkEntries(t, l, z, entriesAbove(es, z))
}
