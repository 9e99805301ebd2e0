package storage

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"zablab/zab/core"
)

func TestFileLogTornTailIsCut(t *testing.T) {
	next := appendRecord(nil, testEntries(1, 11, 11)[0])
	flipped := bytes.Clone(next)
	flipped[len(flipped)-1] ^= 0x40
	tests := []struct {
		name   string
		opts   FileLogOptions
		damage []byte // written where the next record would go
		gap    int64  // zeros between the last record and the damage
	}{
		{"half a record", FileLogOptions{}, next[:len(next)/2], 0},
		{"half a record, no preallocation", FileLogOptions{PreallocBytes: -1}, next[:len(next)/2], 0},
		{"garbage", FileLogOptions{}, bytes.Repeat([]byte{0xde, 0xad}, 50), 0},
		{"checksum mismatch", FileLogOptions{}, flipped, 0},
		{"partial record header", FileLogOptions{PreallocBytes: -1}, []byte{1, 2, 3}, 0},
		{"length beyond the file", FileLogOptions{PreallocBytes: -1}, next[:12], 0},
		{"record after a zero gap", FileLogOptions{}, next, 4096},
		{"length below the minimum", FileLogOptions{}, []byte{5, 0, 0, 0, 1, 1, 1, 1, 9, 9, 9, 9, 9}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			l := openLog(t, dir, tt.opts)
			es := testEntries(1, 1, 10)
			writeLog(t, l, es)
			end, path := l.off, l.f.Name()
			closeLog(t, l)
			writeAt(t, path, end+tt.gap, tt.damage)

			l = openLog(t, dir, tt.opts)
			r := l.Repaired()
			for _, want := range []string{"cut", filepath.Base(path), fmt.Sprintf("offset %d", end)} {
				if !strings.Contains(r, want) {
					t.Errorf("Repaired() = %q, want it to mention %q", r, want)
				}
			}
			if got := fileSize(t, path); got != end {
				t.Errorf("file is %d bytes after the repair, want %d", got, end)
			}
			checkEntries(t, l, 0, es)
			more := testEntries(1, 11, 12)
			writeLog(t, l, more)
			closeLog(t, l)

			l = openLog(t, dir, tt.opts)
			defer closeLog(t, l)
			if r := l.Repaired(); r != "" {
				t.Errorf("second open: Repaired() = %q", r)
			}
			checkEntries(t, l, 0, append(es, more...))
		})
	}
}

// A crash just after rotation leaves a newest file without a durable record.
func TestFileLogTornNewestFileIsRemoved(t *testing.T) {
	rec := appendRecord(nil, core.Entry{Zxid: core.NewZxid(1, 31), Data: []byte("lost")})
	tests := []struct {
		name     string
		content  []byte
		reported bool
	}{
		{"empty file", nil, false},
		{"zeros only", make([]byte, 4096), false},
		{"header only", logHeader(), false},
		{"header and zeros", append(logHeader(), make([]byte, 100)...), false},
		{"torn header", []byte("ZL"), true},
		{"torn header with zeros", append([]byte("ZLO"), make([]byte, 100)...), true},
		{"magic without version", append([]byte("ZLOG"), make([]byte, 100)...), true},
		{"torn first record", append(logHeader(), rec[:len(rec)-3]...), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			l := openLog(t, dir, smallFiles)
			es := testEntries(1, 1, 30)
			writeLog(t, l, es)
			closeLog(t, l)
			before := len(logFiles(t, dir))
			torn := filepath.Join(dir, zxidName(logPrefix, core.NewZxid(1, 31)))
			if err := os.WriteFile(torn, tt.content, 0o644); err != nil {
				t.Fatal(err)
			}

			l = openLog(t, dir, smallFiles)
			defer closeLog(t, l)
			if r := l.Repaired(); (r != "") != tt.reported || tt.reported && !strings.Contains(r, filepath.Base(torn)) {
				t.Errorf("Repaired() = %q, want a report: %v", r, tt.reported)
			}
			if n := len(logFiles(t, dir)); n != before {
				t.Errorf("%d log files after opening, want %d", n, before)
			}
			checkEntries(t, l, 0, es)
			// The next record may take the removed file's name.
			more := testEntries(1, 31, 40)
			writeLog(t, l, more)
			checkEntries(t, l, 0, append(es, more...))
		})
	}
}

func TestFileLogCorruptOlderFileIsAnError(t *testing.T) {
	es := testEntries(1, 1, 30)
	second := int64(logHeaderSize + len(appendRecord(nil, es[0])))
	tests := []struct {
		name   string
		off    int64 // where the damage goes in the first file
		damage []byte
		trunc  bool // cut the file at off instead
		want   []string
	}{
		{"flipped payload byte", second + 20, []byte{0xff}, false, []string{fmt.Sprintf("offset %d", second), "checksum"}},
		{"bad magic", 0, []byte("XLOG"), false, []string{"offset 0", "magic"}},
		{"newer version", 4, []byte{3}, false, []string{"offset 0", "version 3"}},
		{"torn record", second + 10, nil, true, []string{fmt.Sprintf("offset %d", second), "torn"}},
		{"no records", logHeaderSize, nil, true, []string{"no records"}},
		{"junk after the records", 0, nil, false, []string{"non-zero bytes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			l := openLog(t, dir, smallFiles)
			writeLog(t, l, es)
			closeLog(t, l)
			files := logFiles(t, dir)
			if len(files) < 3 {
				t.Fatalf("only %d log files; the test needs rotation", len(files))
			}
			path := filepath.Join(dir, files[0])
			switch {
			case tt.trunc:
				if err := os.Truncate(path, tt.off); err != nil {
					t.Fatal(err)
				}
			case tt.damage == nil:
				writeAt(t, path, fileSize(t, path)+100, []byte{7})
			default:
				writeAt(t, path, tt.off, tt.damage)
			}
			size := fileSize(t, path)

			_, err := OpenFileLog(dir, smallFiles)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("OpenFileLog = %v, want ErrCorrupt", err)
			}
			for _, want := range append(tt.want, files[0]) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
			if got := fileSize(t, path); got != size || len(logFiles(t, dir)) != len(files) {
				t.Errorf("OpenFileLog changed the damaged log")
			}
		})
	}
}

func TestFileLogPreallocatedZerosAreIgnored(t *testing.T) {
	tests := []struct {
		name  string
		opts  FileLogOptions
		zeros int64 // appended by hand after Close
	}{
		{"preallocated by the log", FileLogOptions{PreallocBytes: 1 << 20}, 0},
		{"zeros appended by hand", FileLogOptions{PreallocBytes: -1}, 1 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			l := openLog(t, dir, tt.opts)
			es := testEntries(1, 1, 50)
			writeLog(t, l, es)
			end, path := l.off, l.f.Name()
			closeLog(t, l)
			if tt.zeros > 0 {
				writeAt(t, path, fileSize(t, path), make([]byte, tt.zeros))
			}
			if size := fileSize(t, path); size < end+1000 {
				t.Fatalf("file is %d bytes, records end at %d: no zero tail to test", size, end)
			}

			l = openLog(t, dir, tt.opts)
			defer closeLog(t, l)
			if r := l.Repaired(); r != "" {
				t.Errorf("Repaired() = %q for a zero tail", r)
			}
			checkEntries(t, l, 0, es)
			more := testEntries(1, 51, 60)
			writeLog(t, l, more)
			checkEntries(t, l, 0, append(es, more...))
		})
	}
}

// Random damage to the newest file never panics and never yields entries
// that were not written: the log opens with a prefix of them, or fails with
// ErrCorrupt.
func TestFileLogRandomDamage(t *testing.T) {
	es := testEntries(1, 1, 40)
	for seed := uint64(1); seed <= 60; seed++ {
		dir := t.TempDir()
		l := openLog(t, dir, FileLogOptions{PreallocBytes: 8192})
		writeLog(t, l, es)
		path, end := l.f.Name(), l.off
		closeLog(t, l)
		rng := rand.New(rand.NewPCG(seed, 7))
		if seed%3 == 0 {
			truncate(t, path, rng.Int64N(end))
		} else {
			junk := make([]byte, 1+rng.IntN(20))
			for i := range junk {
				junk[i] = byte(rng.Uint32())
			}
			writeAt(t, path, rng.Int64N(end), junk)
		}

		l, err := OpenFileLog(dir, FileLogOptions{})
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("seed %d: OpenFileLog = %v, want nil or ErrCorrupt", seed, err)
			}
			continue
		}
		got, err := l.Entries(0)
		if err != nil {
			t.Fatalf("seed %d: Entries: %v", seed, err)
		}
		if d := cmp.Diff(es[:len(got)], got, cmpOpts); d != "" {
			t.Fatalf("seed %d: entries are not a prefix of those written:\n%s", seed, d)
		}
		closeLog(t, l)
	}
}
