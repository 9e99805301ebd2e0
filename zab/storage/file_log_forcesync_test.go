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
