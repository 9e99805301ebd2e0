package storage

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"zablab/internal/wait"
	"zablab/zab/core"
)

// sizedEntries returns n entries of epoch 1 from counter from on, each
// with size bytes of data.
func sizedEntries(from, n uint32, size int) []core.Entry {
	es := make([]core.Entry, n)
	for i := range es {
		c := from + uint32(i)
		es[i] = core.Entry{Zxid: core.NewZxid(1, c), Seq: uint64(c), Data: bytes.Repeat([]byte{byte(c)}, size)}
	}
	return es
}

// waitForSpare waits until dir holds a complete spare of size bytes and
// returns what it is.
func waitForSpare(t *testing.T, dir string, size int64) os.FileInfo {
	t.Helper()
	var fi os.FileInfo
	wait.For(t, "a complete spare log file", 30*time.Second, func() bool {
		var err error
		fi, err = os.Stat(filepath.Join(dir, spareName))
		return err == nil && fi.Size() == size
	})
	return fi
}

// sameFile fails unless the log file name in dir is the file spare was.
func sameFile(t *testing.T, dir, name string, spare os.FileInfo) {
	t.Helper()
	fi, err := os.Stat(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(spare, fi) {
		t.Fatalf("%s is a new file, not the spare that was ready", name)
	}
}

func TestRotationTakesTheSpare(t *testing.T) {
	dir := t.TempDir()
	opts := FileLogOptions{MaxFileBytes: 64 << 10}
	l := openLog(t, dir, opts)
	es := sizedEntries(1, 40, 1000) // past half of the first file
	writeLog(t, l, es)
	spare := waitForSpare(t, dir, opts.MaxFileBytes)
	more := sizedEntries(41, 40, 1000) // past its end
	writeLog(t, l, more)
	es = append(es, more...)
	files := logFiles(t, dir)
	if len(files) != 2 {
		t.Fatalf("log files %v, want 2", files)
	}
	sameFile(t, dir, files[1], spare)

	// Records in a spare read back like any others, also after a crash,
	// and the zeros after them are not mistaken for a torn tail.
	crash(l)
	l = openLog(t, dir, opts)
	if r := l.Repaired(); r != "" {
		t.Errorf("Repaired after a crash with everything synced: %s", r)
	}
	checkEntries(t, l, 0, es)
	last := sizedEntries(81, 3, 10)
	writeLog(t, l, last)
	closeLog(t, l)
	l = openLog(t, dir, opts)
	defer closeLog(t, l)
	checkEntries(t, l, 0, append(es, last...))
}

func TestAFallocatedFileIsLeftForASpareEarly(t *testing.T) {
	dir := t.TempDir()
	opts := FileLogOptions{MaxFileBytes: 8 << 20}
	l := openLog(t, dir, opts)
	es := sizedEntries(1, 1100, 1000) // past spareEarly, far from half
	for i := 0; i < len(es); i += 10 {
		writeLog(t, l, es[i:i+10])
	}
	spare := waitForSpare(t, dir, opts.MaxFileBytes)
	next := sizedEntries(1101, 1, 1000)
	writeLog(t, l, next)
	files := logFiles(t, dir)
	if len(files) != 2 {
		t.Fatalf("log files %v, want the first left for the spare at the next record", files)
	}
	sameFile(t, dir, files[1], spare)
	if size := fileSize(t, filepath.Join(dir, files[0])); size > 2<<20 {
		t.Errorf("the file left early is %d bytes: its preallocation was not given back", size)
	}
	closeLog(t, l)
	l = openLog(t, dir, opts)
	defer closeLog(t, l)
	checkEntries(t, l, 0, append(es, next...))
}

func TestOpeningKeepsOnlyACompleteSpare(t *testing.T) {
	opts := FileLogOptions{MaxFileBytes: 4096}
	for _, tc := range []struct {
		name      string
		files     map[string]int64 // name → size
		wantReady bool
	}{
		{"half written", map[string]int64{spareName + tmpSuffix: 4096}, false},
		{"another size", map[string]int64{spareName: 1000}, false},
		{"complete", map[string]int64{spareName: 4096, spareName + tmpSuffix: 10}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, size := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			l := openLog(t, dir, opts)
			defer closeLog(t, l)
			if got := l.spare.isReady(opts.MaxFileBytes); got != tc.wantReady {
				t.Errorf("spare ready %v, want %v", got, tc.wantReady)
			}
			if _, err := os.Stat(filepath.Join(dir, spareName+tmpSuffix)); err == nil {
				t.Errorf("a half-written spare is still there")
			}
			_, err := os.Stat(filepath.Join(dir, spareName))
			if kept := err == nil; kept != tc.wantReady {
				t.Errorf("%s on disk %v, want %v", spareName, kept, tc.wantReady)
			}
		})
	}
}

func TestCloseStopsASpareUnderWay(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, FileLogOptions{})
	l.spare.want(1 << 30) // far more than it can write before Close stops it
	closeLog(t, l)
	for _, name := range []string{spareName, spareName + tmpSuffix} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s is left after Close", name)
		}
	}
}

func TestNoSpareForLargeOrNoFsyncs(t *testing.T) {
	opts := FileLogOptions{MaxFileBytes: 1 << 20}
	for _, tc := range []struct {
		name      string
		forceSync bool
		batch     int // 1 KiB entries per fsync
	}{
		{"fsyncs of 160 KiB", true, 160},
		{"forceSync=no", false, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := openLog(t, t.TempDir(), opts)
			l.SetForceSync(tc.forceSync)
			es := sizedEntries(1, 800, 1000) // past half of the file
			for i := 0; i < len(es); i += tc.batch {
				writeLog(t, l, es[i:min(i+tc.batch, len(es))])
			}
			defer closeLog(t, l)
			l.spare.mu.Lock()
			started := l.spare.busy || l.spare.ready != 0
			l.spare.mu.Unlock()
			if started {
				t.Errorf("a spare was started")
			}
		})
	}
}

func TestNoSpareWithoutPreallocation(t *testing.T) {
	l := openLog(t, t.TempDir(), FileLogOptions{MaxFileBytes: 4096, PreallocBytes: -1})
	defer closeLog(t, l)
	if l.spare != nil {
		t.Errorf("a log without preallocation prepares spare files")
	}
}

// forceSync=no, turned on at runtime through the public API, must not start
// a spare (file_spare.go: "never with forceSync=no").
func TestNoSpareOnceForceSyncIsTurnedOff(t *testing.T) {
	opts := FileLogOptions{MaxFileBytes: 1 << 20}
	l := openLog(t, t.TempDir(), opts)
	defer closeLog(t, l)
	es := sizedEntries(1, 800, 1000)
	for i := 0; i < 400; i += 10 { // 400 KiB in fsyncs of 10 KiB: below half
		writeLog(t, l, es[i:i+10])
	}
	l.SetForceSync(false)
	for i := 400; i < len(es); i += 10 { // past half, no fsync at all
		writeLog(t, l, es[i:i+10])
	}
	l.spare.mu.Lock()
	started := l.spare.busy || l.spare.ready != 0
	l.spare.mu.Unlock()
	if started {
		t.Errorf("a spare was started although forceSync=no (%d fsyncs of this file)", l.fsyncs)
	}
}

// A log reopened without preallocation removes the spare (and a
// half-written one) an earlier run left: it will never take them.
func TestLeftoverSparesGoWithPreallocationOff(t *testing.T) {
	dir := t.TempDir()
	opts := FileLogOptions{MaxFileBytes: 64 << 10}
	l := openLog(t, dir, opts)
	writeLog(t, l, sizedEntries(1, 40, 1000))
	waitForSpare(t, dir, opts.MaxFileBytes)
	closeLog(t, l)
	// and the leftover of a fill a crash interrupted
	if err := os.WriteFile(filepath.Join(dir, spareName+tmpSuffix), make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}

	opts.PreallocBytes = -1
	l = openLog(t, dir, opts)
	writeLog(t, l, sizedEntries(41, 200, 1000)) // several rotations
	closeLog(t, l)
	l = openLog(t, dir, opts)
	defer closeLog(t, l)
	for _, name := range []string{spareName, spareName + tmpSuffix} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s (%d bytes) is still in the log folder of a log without preallocation", name, fi.Size())
		}
	}
}

// A spare that went missing (removed by an operator's cleanup, say) does
// not break the log: rotation creates a file instead.
func TestAMissingSpareDoesNotBreakTheLog(t *testing.T) {
	dir := t.TempDir()
	opts := FileLogOptions{MaxFileBytes: 64 << 10}
	l := openLog(t, dir, opts)
	defer closeLog(t, l)
	es := sizedEntries(1, 40, 1000)
	writeLog(t, l, es)
	waitForSpare(t, dir, opts.MaxFileBytes)
	if err := os.Remove(filepath.Join(dir, spareName)); err != nil {
		t.Fatal(err)
	}
	more := sizedEntries(41, 40, 1000) // past the end of the first file
	if err := l.Append(more); err != nil {
		t.Fatalf("Append after the spare went missing: %v", err)
	}
	if err := l.Sync(); err != nil {
		t.Fatalf("Sync: %v", err)
	}
	checkEntries(t, l, 0, append(es, more...))
}

// Rotations onto spares beside readers, RemoveBefore and TruncateAfter,
// then a crash or a Close, and the log reads back whole.
func TestSparesWithRemovalsTruncationsAndCrashes(t *testing.T) {
	dir := t.TempDir()
	opts := FileLogOptions{MaxFileBytes: 32 << 10, PreallocBytes: 8 << 10}
	for round := 0; round < 3; round++ {
		l := openLog(t, dir, opts)
		all, err := l.Entries(0)
		if err != nil {
			t.Fatal(err)
		}
		next := uint32(1)
		if len(all) > 0 {
			next = all[len(all)-1].Zxid.Counter() + 1
		}
		var wg sync.WaitGroup
		stop := make(chan struct{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := l.Entries(0); err != nil {
					t.Errorf("Entries: %v", err)
					return
				}
			}
		}()
		for i := 0; i < 300; i++ {
			es := sizedEntries(next, 3, 300)
			next += 3
			writeLog(t, l, es)
			if i%50 == 49 {
				if err := l.RemoveBefore(core.NewZxid(1, next-30)); err != nil {
					t.Fatal(err)
				}
			}
			if i%70 == 69 {
				next -= 2
				if err := l.TruncateAfter(core.NewZxid(1, next-1)); err != nil {
					t.Fatal(err)
				}
			}
		}
		close(stop)
		wg.Wait()
		want, err := l.Entries(0)
		if err != nil {
			t.Fatal(err)
		}
		if round%2 == 0 {
			crash(l)
		} else {
			closeLog(t, l)
		}
		l = openLog(t, dir, opts)
		if r := l.Repaired(); r != "" {
			t.Errorf("Repaired: %s", r)
		}
		checkEntries(t, l, 0, want)
		closeLog(t, l)
	}
}

// On a file system with room for the log but not for a spare beside it,
// the spare must not take the blocks the log's own file needs: a failed
// preallocation there broke the log for good (a review proved it). The
// test mounts a 12 MiB tmpfs, so it needs root.
func TestASpareNeverTakesTheLogsRoom(t *testing.T) {
	fsDir := smallFileSystem(t, 12<<20)
	opts := FileLogOptions{MaxFileBytes: 16 << 20, PreallocBytes: 4 << 10} // a spare never fits
	for attempt := 0; attempt < 5; attempt++ {
		dir, err := os.MkdirTemp(fsDir, "log")
		if err != nil {
			t.Fatal(err)
		}
		l := openLog(t, dir, opts)
		es := sizedEntries(1, 4000, 1000) // 4 MiB of records, a third of the file system
		var ferr error
		for i := 0; i < len(es) && ferr == nil; i += 2 {
			if ferr = l.Append(es[i : i+2]); ferr == nil {
				ferr = l.Sync()
			}
		}
		_ = l.Close()
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if ferr != nil {
			t.Fatalf("attempt %d: the log failed with 4 MiB of records on a 12 MiB file system: %v", attempt, ferr)
		}
	}
}
