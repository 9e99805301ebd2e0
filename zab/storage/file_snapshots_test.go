package storage

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"zablab/zab/core"
)

func testSnapshot(epoch, counter uint32) core.Snapshot {
	z := core.NewZxid(epoch, counter)
	return core.Snapshot{
		Meta: core.SnapshotMeta{Zxid: z, Timestamp: int64(z) * 10},
		Data: []byte(strings.Repeat(fmt.Sprintf("state at %v;", z), int(counter))),
	}
}

func openSnaps(t testing.TB, dir string, keep int) *FileSnapshots {
	t.Helper()
	s, err := OpenFileSnapshots(dir, keep)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func save(t testing.TB, s *FileSnapshots, snaps ...core.Snapshot) {
	t.Helper()
	for _, snap := range snaps {
		if err := s.Save(snap); err != nil {
			t.Fatalf("Save(%v): %v", snap.Meta.Zxid, err)
		}
	}
}

func checkLatest(t testing.TB, s *FileSnapshots, want core.Snapshot) {
	t.Helper()
	got, err := s.Latest()
	if err != nil {
		t.Fatalf("Latest: %v", err)
	}
	if d := cmp.Diff(want, got, cmpOpts); d != "" {
		t.Fatalf("Latest -want +got:\n%s", d)
	}
}

func snapFiles(t testing.TB, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

func TestFileSnapshotsKeepNewest(t *testing.T) {
	for _, keep := range []int{0, 1, 2, 5} {
		t.Run(fmt.Sprintf("keep=%d", keep), func(t *testing.T) {
			dir := t.TempDir()
			s := openSnaps(t, dir, keep)
			if _, err := s.Latest(); !errors.Is(err, ErrNoSnapshot) {
				t.Fatalf("Latest of an empty folder = %v, want ErrNoSnapshot", err)
			}
			var all []core.Snapshot
			for c := uint32(1); c <= 7; c++ {
				all = append(all, testSnapshot(1, c*10))
			}
			all = append(all, core.Snapshot{Meta: core.SnapshotMeta{Zxid: core.NewZxid(2, 0)}}) // empty data
			save(t, s, all...)
			n := keep
			if n == 0 {
				n = defaultKeep
			}
			var want []string
			for _, snap := range all[len(all)-n:] {
				want = append(want, zxidName(snapPrefix, snap.Meta.Zxid))
			}
			if d := cmp.Diff(want, snapFiles(t, dir)); d != "" {
				t.Errorf("files -want +got:\n%s", d)
			}
			checkLatest(t, openSnaps(t, dir, keep), all[len(all)-1])
		})
	}
}

// corruptions damage a snapshot file in place.
var corruptions = []struct {
	name   string
	damage func(t testing.TB, path string)
	want   string
}{
	{"flipped data byte", func(t testing.TB, p string) { flipByte(t, p, snapHeaderSize+3) }, "data checksum"},
	{"flipped header byte", func(t testing.TB, p string) { flipByte(t, p, 20) }, "header checksum"},
	{"bad magic", func(t testing.TB, p string) { flipByte(t, p, 0) }, "magic"},
	{"truncated data", func(t testing.TB, p string) { truncate(t, p, fileSize(t, p)-1) }, "header says"},
	{"truncated header", func(t testing.TB, p string) { truncate(t, p, 10) }, "shorter than the header"},
	{"empty file", func(t testing.TB, p string) { truncate(t, p, 0) }, "shorter than the header"},
	{"appended byte", func(t testing.TB, p string) { writeAt(t, p, fileSize(t, p), []byte{0}) }, "header says"},
}

func flipByte(t testing.TB, path string, off int64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[off] ^= 0x10
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func truncate(t testing.TB, path string, size int64) {
	t.Helper()
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
}

func TestFileSnapshotsFallBackPastDamage(t *testing.T) {
	for _, c := range corruptions {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			s := openSnaps(t, dir, 3)
			snaps := []core.Snapshot{testSnapshot(1, 5), testSnapshot(1, 9), testSnapshot(2, 3)}
			save(t, s, snaps...)
			newest := filepath.Join(dir, zxidName(snapPrefix, snaps[2].Meta.Zxid))
			c.damage(t, newest)

			checkLatest(t, s, snaps[1])
			skipped := s.Skipped()
			if len(skipped) != 1 || !strings.Contains(skipped[0], newest) || !strings.Contains(skipped[0], c.want) {
				t.Errorf("Skipped() = %q, want one report naming %s and saying %q", skipped, newest, c.want)
			}

			c.damage(t, filepath.Join(dir, zxidName(snapPrefix, snaps[1].Meta.Zxid)))
			checkLatest(t, s, snaps[0])
			if n := len(s.Skipped()); n != 2 {
				t.Errorf("Skipped() has %d reports, want 2", n)
			}

			c.damage(t, filepath.Join(dir, zxidName(snapPrefix, snaps[0].Meta.Zxid)))
			if _, err := s.Latest(); !errors.Is(err, ErrCorrupt) || errors.Is(err, ErrNoSnapshot) {
				t.Errorf("Latest with every snapshot damaged = %v, want ErrCorrupt", err)
			}
		})
	}
}

func TestFileSnapshotsNameMismatch(t *testing.T) {
	dir := t.TempDir()
	s := openSnaps(t, dir, 3)
	a, b := testSnapshot(1, 1), testSnapshot(1, 2)
	save(t, s, a)
	// A file whose header disagrees with its name must not be trusted.
	if err := os.Rename(filepath.Join(dir, zxidName(snapPrefix, a.Meta.Zxid)), filepath.Join(dir, zxidName(snapPrefix, b.Meta.Zxid))); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Latest(); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "every snapshot") {
		t.Fatalf("Latest = %v, want ErrCorrupt", err)
	}
	if sk := s.Skipped(); len(sk) != 1 || !strings.Contains(sk[0], "does not match the file name") {
		t.Errorf("Skipped() = %q", sk)
	}
}

func TestFileSnapshotsSaveLowerDropsHigher(t *testing.T) {
	dir := t.TempDir()
	s := openSnaps(t, dir, 3)
	save(t, s, testSnapshot(1, 5), testSnapshot(1, 9), testSnapshot(1, 12))
	lower := testSnapshot(1, 7)
	save(t, s, lower)
	checkLatest(t, s, lower)
	want := []string{zxidName(snapPrefix, core.NewZxid(1, 5)), zxidName(snapPrefix, lower.Meta.Zxid)}
	if d := cmp.Diff(want, snapFiles(t, dir)); d != "" {
		t.Errorf("files -want +got:\n%s", d)
	}
}

// chunkSource streams n bytes in chunks without holding them all.
type chunkSource struct{ n, chunk int }

func (c chunkSource) writeTo(w io.Writer) error {
	buf := make([]byte, c.chunk)
	for sent := 0; sent < c.n; sent += len(buf) {
		for i := range buf {
			buf[i] = byte((sent + i) % 251)
		}
		if _, err := w.Write(buf[:min(len(buf), c.n-sent)]); err != nil {
			return err
		}
	}
	return nil
}

func TestFileSnapshotsSaveFrom(t *testing.T) {
	dir := t.TempDir()
	s := openSnaps(t, dir, 3)
	src := chunkSource{n: 3<<20 + 17, chunk: 64 << 10}
	meta := core.SnapshotMeta{Zxid: core.NewZxid(3, 4), Timestamp: 99}
	if err := s.SaveFrom(meta, src.writeTo); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := src.writeTo(&want); err != nil {
		t.Fatal(err)
	}
	checkLatest(t, openSnaps(t, dir, 3), core.Snapshot{Meta: meta, Data: want.Bytes()})

	// A failing writer leaves the folder as it was.
	boom := errors.New("application failed")
	err := s.SaveFrom(core.SnapshotMeta{Zxid: core.NewZxid(3, 9)}, func(w io.Writer) error {
		if _, err := w.Write([]byte("partial")); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("SaveFrom = %v, want the writer's error", err)
	}
	if d := cmp.Diff([]string{zxidName(snapPrefix, meta.Zxid)}, snapFiles(t, dir)); d != "" {
		t.Errorf("files after a failed save -want +got:\n%s", d)
	}
	checkLatest(t, s, core.Snapshot{Meta: meta, Data: want.Bytes()})
}

func TestFileSnapshotsRemovesLeftoverTmp(t *testing.T) {
	dir := t.TempDir()
	s := openSnaps(t, dir, 3)
	snap := testSnapshot(1, 3)
	save(t, s, snap)
	leftover := filepath.Join(dir, zxidName(snapPrefix, core.NewZxid(1, 4))+tmpSuffix)
	if err := os.WriteFile(leftover, []byte("ZSNP half"), 0o644); err != nil {
		t.Fatal(err)
	}
	s = openSnaps(t, dir, 3)
	if _, err := os.Stat(leftover); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("leftover %s not removed: %v", leftover, err)
	}
	checkLatest(t, s, snap)
	if sk := s.Skipped(); len(sk) != 0 {
		t.Errorf("Skipped() = %q", sk)
	}
}
