package storage

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"zablab/zab/core"
)

// cmpOpts compares byte slices with bytes.Equal, as cmp's reflective walk
// takes seconds on megabytes, and takes nil and empty entry lists as equal.
var cmpOpts = cmp.Options{
	cmp.Comparer(bytes.Equal),
	cmp.FilterValues(func(x, y []core.Entry) bool { return len(x) == 0 && len(y) == 0 }, cmp.Ignore()),
}

// testEntries returns entries with counters from..to in epoch; record i has
// i bytes of data (none for i = 0 mod 7), so records differ in size.
func testEntries(epoch, from, to uint32) []core.Entry {
	var es []core.Entry
	for c := from; c <= to; c++ {
		e := core.Entry{Zxid: core.NewZxid(epoch, c), Timestamp: int64(epoch)<<32 | int64(c), Proposer: uint64(c % 3), Seq: uint64(c)}
		if c%7 != 0 {
			e.Data = []byte(strings.Repeat(fmt.Sprintf("%d.", c), int(c%11)+1))
		}
		es = append(es, e)
	}
	return es
}

func entriesAbove(es []core.Entry, after core.Zxid) []core.Entry {
	var out []core.Entry
	for _, e := range es {
		if e.Zxid > after {
			out = append(out, e)
		}
	}
	return out
}

func entriesUpTo(es []core.Entry, z core.Zxid) []core.Entry {
	var out []core.Entry
	for _, e := range es {
		if e.Zxid <= z {
			out = append(out, e)
		}
	}
	return out
}

func openLog(t testing.TB, dir string, opts FileLogOptions) *FileLog {
	t.Helper()
	l, err := OpenFileLog(dir, opts)
	if err != nil {
		t.Fatalf("OpenFileLog: %v", err)
	}
	return l
}

func writeLog(t testing.TB, l *FileLog, es []core.Entry) {
	t.Helper()
	if err := l.Append(es); err != nil {
		t.Fatalf("Append: %v", err)
	}
	if err := l.Sync(); err != nil {
		t.Fatalf("Sync: %v", err)
	}
}

func closeLog(t testing.TB, l *FileLog) {
	t.Helper()
	if err := l.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// checkEntries fails unless l's entries above after are want.
func checkEntries(t testing.TB, l *FileLog, after core.Zxid, want []core.Entry) {
	t.Helper()
	got, err := l.Entries(after)
	if err != nil {
		t.Fatalf("Entries(%v): %v", after, err)
	}
	if d := cmp.Diff(want, got, cmpOpts); d != "" {
		t.Fatalf("Entries(%v) -want +got:\n%s", after, d)
	}
}

// crash drops l's buffers and file handle without writing anything, as
// killing the process would.
func crash(l *FileLog) {
	// A killed process takes the releaser with it; here it finishes, so it
	// cannot touch a log opened on the folder after the crash. What it
	// deletes, the next opening would delete too (removeRetired).
	_ = l.release.stop()
	if l.spare != nil {
		l.spare.close()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.f != nil {
		l.f.Close()
	}
}

// logFiles lists the log files in dir by name.
func logFiles(t testing.TB, dir string) []string {
	t.Helper()
	zs, err := listZxidFiles(dir, logPrefix)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, z := range zs {
		names = append(names, zxidName(logPrefix, z))
	}
	return names
}

// smallFiles makes a log rotate every few records.
var smallFiles = FileLogOptions{MaxFileBytes: 400, PreallocBytes: 256}

func TestFileLogRoundTrip(t *testing.T) {
	big := core.Entry{Zxid: core.NewZxid(2, 1), Data: make([]byte, 1<<20)}
	for i := range big.Data {
		big.Data[i] = byte(i * 7)
	}
	tests := []struct {
		name string
		opts FileLogOptions
		es   []core.Entry
	}{
		{"empty log", FileLogOptions{}, nil},
		{"one entry without data", FileLogOptions{}, []core.Entry{{Zxid: 1}}},
		{"many entries", FileLogOptions{}, testEntries(1, 1, 100)},
		{"no preallocation", FileLogOptions{PreallocBytes: -1}, testEntries(1, 1, 100)},
		{"entry larger than a preallocation step", FileLogOptions{PreallocBytes: 4096},
			append(testEntries(1, 1, 3), big)},
		{"extreme field values", FileLogOptions{}, []core.Entry{
			{Zxid: 1, Timestamp: -1, Proposer: ^uint64(0), Seq: ^uint64(0), Data: []byte{0}},
			{Zxid: ^core.Zxid(0), Timestamp: 1 << 62, Data: []byte{0, 0, 0}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			l := openLog(t, dir, tt.opts)
			writeLog(t, l, tt.es)
			checkEntries(t, l, 0, entriesAbove(tt.es, 0))
			closeLog(t, l)

			l = openLog(t, dir, tt.opts)
			defer closeLog(t, l)
			if r := l.Repaired(); r != "" {
				t.Errorf("Repaired() = %q after a clean close", r)
			}
			checkEntries(t, l, 0, tt.es)
		})
	}
}

func TestFileLogGroupCommit(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, FileLogOptions{})
	es := testEntries(1, 1, 1000)
	for chunk := range slices.Chunk(es, 37) {
		if err := l.Append(chunk); err != nil {
			t.Fatal(err)
		}
	}
	checkEntries(t, l, 0, nil) // nothing is durable before Sync
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	if l.syncs != 1 {
		t.Errorf("%d fsyncs for one batch, want 1", l.syncs)
	}
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	if l.syncs != 1 {
		t.Errorf("Sync with nothing new fsynced again: %d fsyncs", l.syncs)
	}
	checkEntries(t, l, 0, es)
	crash(l)

	l = openLog(t, dir, FileLogOptions{})
	defer closeLog(t, l)
	checkEntries(t, l, 0, es)
}

func TestFileLogUnsyncedEntriesLostInCrash(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, FileLogOptions{})
	synced := testEntries(1, 1, 10)
	writeLog(t, l, synced)
	if err := l.Append(testEntries(1, 11, 20)); err != nil {
		t.Fatal(err)
	}
	crash(l)
	l = openLog(t, dir, FileLogOptions{})
	defer closeLog(t, l)
	checkEntries(t, l, 0, synced)
	// The log goes on after the last durable entry.
	more := testEntries(1, 11, 12)
	writeLog(t, l, more)
	checkEntries(t, l, 0, append(synced, more...))
}

func TestFileLogAppendRefusesDisorder(t *testing.T) {
	l := openLog(t, t.TempDir(), FileLogOptions{})
	defer closeLog(t, l)
	writeLog(t, l, testEntries(1, 1, 5))
	tests := []struct {
		name  string
		batch []core.Entry
	}{
		{"repeat of the last zxid", testEntries(1, 5, 5)},
		{"older zxid", testEntries(1, 2, 2)},
		{"disorder inside the batch", []core.Entry{{Zxid: core.NewZxid(1, 7)}, {Zxid: core.NewZxid(1, 6)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := l.Append(tt.batch); !errors.Is(err, ErrBadEntry) {
				t.Fatalf("Append = %v, want ErrBadEntry", err)
			}
			if err := l.Sync(); err != nil {
				t.Fatalf("log unusable after a refused batch: %v", err)
			}
			checkEntries(t, l, 0, testEntries(1, 1, 5))
		})
	}
}

func TestFileLogClosed(t *testing.T) {
	l := openLog(t, t.TempDir(), FileLogOptions{})
	closeLog(t, l)
	calls := map[string]error{
		"Append":        l.Append(testEntries(1, 1, 1)),
		"Sync":          l.Sync(),
		"TruncateAfter": l.TruncateAfter(0),
		"RemoveBefore":  l.RemoveBefore(0),
	}
	_, calls["Entries"] = l.Entries(0)
	for name, err := range calls {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s after Close = %v, want ErrClosed", name, err)
		}
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

// writeAt overwrites bytes of a file, or appends when off is the file size.
func writeAt(t testing.TB, path string, off int64, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

func fileSize(t testing.TB, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestNoRoomCoversQuotas: preallocation is skipped, not fatal, when the
// file system is full and when the user's quota is (EDQUOT), however
// wrapped; other errors still stop the log.
func TestNoRoomCoversQuotas(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("fallocate log.1: %w", syscall.ENOSPC), true},
		{fmt.Errorf("fallocate log.1: %w", syscall.EDQUOT), true},
		{fmt.Errorf("fallocate log.1: %w", syscall.EIO), false},
		{nil, false},
	} {
		if got := noRoom(c.err); got != c.want {
			t.Errorf("noRoom(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// TestAFullDiskIsAskedOnceAFile: once preallocating a file meets a full
// disk, that file grows by its writes alone instead of paying a failing
// fallocate with every append; the next file asks again; nothing
// appended is lost.
func TestAFullDiskIsAskedOnceAFile(t *testing.T) {
	calls := 0
	preallocateFile = func(f *os.File, off, length int64) error {
		calls++
		return fmt.Errorf("storage: preallocate %s: %w", f.Name(), syscall.ENOSPC)
	}
	t.Cleanup(func() { preallocateFile = preallocate })
	dir := t.TempDir()
	l := openLog(t, dir, FileLogOptions{MaxFileBytes: 64 << 10, PreallocBytes: 4 << 10})
	var all []core.Entry
	for c := uint32(1); c <= 100; c++ {
		e := core.Entry{Zxid: core.NewZxid(1, c), Data: bytes.Repeat([]byte{byte(c)}, 1<<10)}
		writeLog(t, l, []core.Entry{e})
		all = append(all, e)
	}
	files := len(logFiles(t, dir))
	if files < 2 || calls > files {
		t.Fatalf("%d fallocate calls on a full disk for 100 appends in %d files, want one per file at most", calls, files)
	}
	closeLog(t, l)
	preallocateFile = preallocate
	l = openLog(t, dir, FileLogOptions{MaxFileBytes: 64 << 10, PreallocBytes: 4 << 10})
	defer closeLog(t, l)
	checkEntries(t, l, 0, all)
}
