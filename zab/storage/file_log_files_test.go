package storage

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"zablab/zab/core"
)

// checkFileNames fails unless every log file is named after its first record.
func checkFileNames(t testing.TB, dir string) {
	t.Helper()
	zs, err := listZxidFiles(dir, logPrefix)
	if err != nil {
		t.Fatal(err)
	}
	for _, z := range zs {
		seg := segment{first: z, path: filepath.Join(dir, zxidName(logPrefix, z))}
		n := 0
		if err := readSegment(seg, -1, func(core.Entry) { n++ }); err != nil || n == 0 {
			t.Errorf("%s: %d records, %v", seg.path, n, err)
		}
	}
}

func TestFileLogRotation(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, smallFiles)
	es := testEntries(1, 1, 60)
	for i := 0; i < len(es); i += 4 {
		writeLog(t, l, es[i:min(i+4, len(es))])
	}
	files := logFiles(t, dir)
	if len(files) < 5 {
		t.Fatalf("%d files for %d entries of MaxFileBytes %d", len(files), len(es), smallFiles.MaxFileBytes)
	}
	checkFileNames(t, dir)
	for _, name := range files[:len(files)-1] {
		// Records never start past the limit, so no file grows much beyond it.
		if size := fileSize(t, filepath.Join(dir, name)); size > smallFiles.MaxFileBytes+200 {
			t.Errorf("%s is %d bytes, limit %d", name, size, smallFiles.MaxFileBytes)
		}
	}
	closeLog(t, l)

	l = openLog(t, dir, smallFiles)
	defer closeLog(t, l)
	for _, after := range []core.Zxid{0, es[0].Zxid, es[9].Zxid, es[33].Zxid, es[58].Zxid, es[59].Zxid, core.NewZxid(2, 0)} {
		checkEntries(t, l, after, entriesAbove(es, after))
	}
	// A range across files: only (after, upto], from the files that hold it.
	for _, r := range [][2]int{{0, 0}, {3, 17}, {9, 33}, {40, 59}, {20, 21}} {
		got, err := l.EntriesBetween(es[r[0]].Zxid, es[r[1]].Zxid)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(es[r[0]+1:r[1]+1], got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("EntriesBetween(%s, %s) (-want +got):\n%s", es[r[0]].Zxid, es[r[1]].Zxid, diff)
		}
	}
}

func TestFileLogTruncateAfter(t *testing.T) {
	es := testEntries(1, 1, 40)
	tests := []struct {
		name     string
		unsynced int // entries of es appended but not synced before the cut
		z        core.Zxid
	}{
		{"above the last entry", 0, core.NewZxid(1, 50)},
		{"at the last entry", 0, core.NewZxid(1, 40)},
		{"within the last file", 0, core.NewZxid(1, 38)},
		{"into an older file", 0, core.NewZxid(1, 13)},
		{"at the end of an older file", 0, 0}, // z set below to a file's last entry
		{"into the first file", 0, core.NewZxid(1, 1)},
		{"below every entry", 0, core.NewZxid(0, 5)},
		{"into unsynced entries", 5, core.NewZxid(1, 37)},
		{"into synced entries with unsynced ones after", 5, core.NewZxid(1, 20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			l := openLog(t, dir, smallFiles)
			writeLog(t, l, es[:len(es)-tt.unsynced])
			if err := l.Append(es[len(es)-tt.unsynced:]); err != nil {
				t.Fatal(err)
			}
			z := tt.z
			if z == 0 {
				z = l.segs[2].first - 1
			}
			if err := l.TruncateAfter(z); err != nil {
				t.Fatalf("TruncateAfter(%v): %v", z, err)
			}
			if err := l.Sync(); err != nil { // as Store.Persist does
				t.Fatal(err)
			}
			want := entriesUpTo(es, z)
			checkEntries(t, l, 0, want)
			// A new leader's proposals follow the cut.
			more := testEntries(2, 1, 15)
			writeLog(t, l, more)
			want = append(want, more...)
			checkEntries(t, l, 0, want)
			closeLog(t, l)

			l = openLog(t, dir, smallFiles)
			defer closeLog(t, l)
			if r := l.Repaired(); r != "" {
				t.Errorf("Repaired() = %q", r)
			}
			checkEntries(t, l, 0, want)
			checkFileNames(t, dir)
		})
	}
}

// TruncateAfter is durable at once: a crash right after it loses nothing
// of the cut and brings back nothing above it.
func TestFileLogTruncateAfterIsDurable(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, smallFiles)
	es := testEntries(1, 1, 40)
	writeLog(t, l, es)
	z := core.NewZxid(1, 17)
	if err := l.TruncateAfter(z); err != nil {
		t.Fatal(err)
	}
	crash(l)
	l = openLog(t, dir, smallFiles)
	defer closeLog(t, l)
	checkEntries(t, l, 0, entriesUpTo(es, z))
}

func TestFileLogRemoveBefore(t *testing.T) {
	es := testEntries(1, 1, 60)
	tests := []struct {
		name string
		z    func(segs []segment) core.Zxid
		keep func(segs []segment) []segment
	}{
		{"below every file", func([]segment) core.Zxid { return 0 },
			func(s []segment) []segment { return s }},
		{"first entry of the third file", func(s []segment) core.Zxid { return s[2].first },
			func(s []segment) []segment { return s[2:] }},
		{"last entry of the third file", func(s []segment) core.Zxid { return s[3].first - 1 },
			func(s []segment) []segment { return s[2:] }},
		{"inside the newest file", func([]segment) core.Zxid { return es[58].Zxid },
			func(s []segment) []segment { return s[len(s)-1:] }},
		{"above every entry", func([]segment) core.Zxid { return core.NewZxid(9, 9) },
			func(s []segment) []segment { return s[len(s)-1:] }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			l := openLog(t, dir, smallFiles)
			writeLog(t, l, es)
			segs := append([]segment(nil), l.segs...)
			z := tt.z(segs)
			if err := l.RemoveBefore(z); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, s := range tt.keep(segs) {
				want = append(want, filepath.Base(s.path))
			}
			if d := cmp.Diff(want, logFiles(t, dir)); d != "" {
				t.Errorf("files after RemoveBefore(%v) -want +got:\n%s", z, d)
			}
			checkEntries(t, l, z, entriesAbove(es, z))
			more := testEntries(2, 1, 3)
			writeLog(t, l, more)
			closeLog(t, l)

			l = openLog(t, dir, smallFiles)
			defer closeLog(t, l)
			checkEntries(t, l, z, entriesAbove(append(es, more...), z))
		})
	}
}

func TestFileLogIgnoresOtherFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"log.1", "log.0000000100000001.tmp", "notes.txt", "log.000000010000000G"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("junk"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l := openLog(t, dir, FileLogOptions{})
	defer closeLog(t, l)
	es := testEntries(1, 1, 3)
	writeLog(t, l, es)
	checkEntries(t, l, 0, es)
}
