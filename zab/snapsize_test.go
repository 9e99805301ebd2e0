package zab

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"zablab/internal/wait"
	"zablab/properties"
)

// TestSnapshotOnceTheDataReachesTheLimit: with snapCount alone, a peer
// restarted after 4,000 writes of 64 KiB read all 256 MiB back and held it
// until delivered (peak RSS 288 MB for a peer that ran in 28 MB). Now the
// data delivered since the last snapshot calls for the next one once it
// reaches snapSizeLimitInKb: 16 KiB here, reached by the fifth of 4 KiB
// messages, with snapCount far away.
func TestSnapshotOnceTheDataReachesTheLimit(t *testing.T) {
	dir := t.TempDir()
	p, err := properties.LoadString(fmt.Sprintf("dataLogDir=%s\nsnapCount=1000000\nsnapSizeLimitInKb=16\ntickTime=10\nlog.level=OFF\n", dir))
	if err != nil {
		t.Fatal(err)
	}
	z, err := NewSingleZab(&recorder{}, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := z.Startup(); err != nil {
		t.Fatal(err)
	}
	defer z.Shutdown()
	app := z.cb.(*recorder)
	wait.For(t, "leading", 5*time.Second, func() bool { _, s := app.snapshot(); return s == Leading })
	for i := 0; i < 5; i++ {
		if _, err := z.Propose(bytes.Repeat([]byte{byte('a' + i)}, 4<<10)); err != nil {
			t.Fatal(err)
		}
	}
	wait.For(t, "a snapshot after 20 KiB of data (limit 16 KiB, snapCount 1,000,000)", 10*time.Second, func() bool {
		return len(files(t, dir, "snapshot.*")) > 0
	})
}

// TestSnapBytesDueWaitsForTheStateSize: a state larger than the limit is
// written again only after as much log as it is large; otherwise a 1 GiB
// tree would be written out for every 64 MiB of writes.
func TestSnapBytesDueWaitsForTheStateSize(t *testing.T) {
	for _, c := range []struct {
		limit, lastSize, since int64
		want                   bool
	}{
		{64 << 10, 0, 64 << 10, true},
		{64 << 10, 0, 64<<10 - 1, false},
		{64 << 10, 1 << 20, 512 << 10, false},
		{64 << 10, 1 << 20, 1 << 20, true},
		{-1, 0, 1 << 40, false}, // snapSizeLimitInKb=0: no limit
	} {
		s := snapshotter{sinceBytes: c.since, lastSize: c.lastSize}
		if got := s.snapBytesDue(c.limit); got != c.want {
			t.Errorf("limit %d, last snapshot %d bytes, %d bytes since: due %v, want %v", c.limit, c.lastSize, c.since, got, c.want)
		}
	}
}

// TestSnapSizeLimitKey: the default is 64 MiB, 0 or below turns the limit
// off (as in ZooKeeper), and a value that is no number is an error naming
// the key.
func TestSnapSizeLimitKey(t *testing.T) {
	for _, c := range []struct {
		line string
		want int64
	}{{"", DefaultSnapBytes}, {"snapSizeLimitInKb=1024", 1 << 20}, {"snapSizeLimitInKb=0", -1}, {"snapSizeLimitInKb=-5", -1}} {
		p, err := properties.LoadString("myid=1\ndataLogDir=/tmp/x\n" + c.line + "\n")
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := ConfigFromProperties(p, true)
		if err != nil {
			t.Fatalf("%q: %v", c.line, err)
		}
		if cfg.SnapBytes != c.want {
			t.Errorf("%q: SnapBytes %d, want %d", c.line, cfg.SnapBytes, c.want)
		}
	}
	p, err := properties.LoadString("myid=1\ndataLogDir=/tmp/x\nsnapSizeLimitInKb=64MB\n")
	if err != nil {
		t.Fatal(err)
	}
	_, err = ConfigFromProperties(p, true)
	if !errors.Is(err, ErrConfig) || !strings.Contains(fmt.Sprint(err), KeySnapSizeLimit) {
		t.Errorf("snapSizeLimitInKb=64MB: %v, want an ErrConfig naming the key", err)
	}
}

// TestSnapSizeLimitTooLargeIsRefused: the KiB were shifted into bytes
// without a bound, so a limit past 8 ZiB wrapped around:
// snapSizeLimitInKb=18014398509481985 (2^54+1) became a limit of 1 KiB,
// a snapshot every few writes, and 2^54 became 0, the 64 MiB default.
// A value that does not fit in bytes is an error naming the key.
func TestSnapSizeLimitTooLargeIsRefused(t *testing.T) {
	for _, v := range []string{"18014398509481985", "18014398509481984", "9007199254740992", "99999999999999999999"} {
		p, err := properties.LoadString("myid=1\ndataLogDir=/tmp/x\nsnapSizeLimitInKb=" + v + "\n")
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := ConfigFromProperties(p, true)
		if !errors.Is(err, ErrConfig) || !strings.Contains(fmt.Sprint(err), KeySnapSizeLimit) {
			t.Errorf("snapSizeLimitInKb=%s: SnapBytes %d, error %v; want an ErrConfig naming the key", v, cfg.SnapBytes, err)
		}
		// The bound it names must be one the key takes: int's maximum
		// (the properties reader's own bound) is refused here too.
		if want := fmt.Sprintf("at most %d KiB", maxSnapKiB); !strings.Contains(fmt.Sprint(err), want) {
			t.Errorf("snapSizeLimitInKb=%s: %v; want it to say %q", v, err, want)
		}
	}
}
