package storage

import "testing"

// forceSync=no keeps the group commit's writes (a process crash loses
// nothing) but issues no fsync; turning it back on fsyncs again.
func TestFileLogWithoutForceSyncWritesButDoesNotFsync(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, FileLogOptions{})
	l.SetForceSync(false)
	es := testEntries(1, 1, 50)
	if err := l.Append(es[:25]); err != nil {
		t.Fatal(err)
	}
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	if n := l.Fsyncs(); n != 0 {
		t.Fatalf("%d fsyncs with forceSync off, want 0", n)
	}
	checkEntries(t, l, 0, es[:25]) // Sync still counts them as written
	l.SetForceSync(true)
	if err := l.Append(es[25:]); err != nil {
		t.Fatal(err)
	}
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	if n := l.Fsyncs(); n != 1 {
		t.Fatalf("%d fsyncs after forceSync is back on, want 1", n)
	}
	crash(l) // the process dies; the page cache keeps what was written
	l = openLog(t, dir, FileLogOptions{})
	defer closeLog(t, l)
	checkEntries(t, l, 0, es)
}

// With forceSync=no too, a full file is fsynced before the next one holds
// a record: recovery repairs only the newest file, and an older one that
// lost pages in a machine crash would open as a log with a gap (found by
// review: rotation went through Sync's switch). Close fsyncs as well.
func TestFileLogWithoutForceSyncStillFsyncsEveryFullFile(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, smallFiles)
	l.SetForceSync(false)
	es := testEntries(1, 1, 60)
	for i := 0; i < len(es); i += 4 {
		writeLog(t, l, es[i:min(i+4, len(es))])
	}
	files := logFiles(t, dir)
	if len(files) < 3 {
		t.Fatalf("only %d files: no rotation to test", len(files))
	}
	if n := l.Fsyncs(); n != len(files)-1 {
		t.Errorf("forceSync=no: %d log files, %d fsyncs; want one per full file (%d)", len(files), n, len(files)-1)
	}
	before := l.Fsyncs()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if l.syncs != before+1 {
		t.Errorf("Close with forceSync=no: %d fsyncs, want %d (the last file's)", l.syncs, before+1)
	}
}
