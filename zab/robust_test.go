package zab

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"zablab/internal/wait"
	"zablab/properties"
)

func TestBadPropertiesNameKeyAndLine(t *testing.T) {
	good := "myid=1\npeer1=127.0.0.1:1\npeer2=127.0.0.1:2\npeer3=127.0.0.1:3\ndataLogDir=d\n"
	for _, tc := range []struct{ name, text, key, line string }{
		{"myid not a number", strings.Replace(good, "myid=1", "myid=one", 1), "myid", ":1:"},
		{"myid not a peer", strings.Replace(good, "myid=1", "myid=7", 1), "myid", ":1:"},
		{"peer without port", strings.Replace(good, "peer2=127.0.0.1:2", "peer2=127.0.0.1", 1), "peer2", ":3:"},
		{"peer index bad", good + "peerX=127.0.0.1:9\n", "peerX", ":6:"},
		{"duplicate address", strings.Replace(good, "peer3=127.0.0.1:3", "peer3=127.0.0.1:2", 1), "peer3", ":4:"},
		{"no dataLogDir", strings.Replace(good, "dataLogDir=d\n", "", 1), "dataLogDir", ""},
		{"tickTime words", good + "tickTime=2s\n", "tickTime", ":6:"},
		{"syncLimit too small", good + "syncLimit=1\n", "syncLimit", ":6:"},
		{"bad log level", good + "log.level=LOUD\n", "log.level", ":6:"},
		{"only observers", "myid=1\npeer1=127.0.0.1:1:observer\ndataLogDir=d\n", "peer1", ""},
		{"port with letter O", strings.Replace(good, "peer2=127.0.0.1:2", "peer2=127.0.0.1:132OO", 1), "peer2", ":3:"},
		{"port out of range", strings.Replace(good, "peer2=127.0.0.1:2", "peer2=127.0.0.1:70000", 1), "peer2", ":3:"},
		{"key differs in case", good + "ticktime=100\n", "ticktime", ":6:"},
		{"peer key differs in case", good + "Peer4=127.0.0.1:4\n", "Peer4", ":6:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "peer.properties")
			if err := os.WriteFile(file, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := properties.LoadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			_, err = NewMultiZab(&recorder{}, p)
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("got %v, want an ErrConfig", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.key) || !strings.Contains(msg, "peer.properties"+tc.line) {
				t.Fatalf("error %q does not name key %q and peer.properties%s", msg, tc.key, tc.line)
			}
		})
	}
}

// single starts a SingleZab on dir with a captured logger.
func single(t *testing.T, dir string, snapCount int) (*SingleZab, *recorder, *logtest.Hook) {
	t.Helper()
	return singleIn(t, dir, dir, snapCount)
}

// singleIn is single with the snapshots in a folder of their own.
func singleIn(t *testing.T, logDir, snapDir string, snapCount int) (*SingleZab, *recorder, *logtest.Hook) {
	t.Helper()
	p, err := properties.LoadString(fmt.Sprintf("dataLogDir=%s\ndataSnapDir=%s\nsnapCount=%d\ntickTime=10\n", logDir, snapDir, snapCount))
	if err != nil {
		t.Fatal(err)
	}
	z, err := NewSingleZab(&recorder{}, p)
	if err != nil {
		t.Fatal(err)
	}
	lg, hook := logtest.NewNullLogger()
	z.cfg.Logger, z.lg = lg, lg.WithField("peer", 1)
	app := z.cb.(*recorder)
	if err := z.Startup(); err != nil {
		t.Fatal(err)
	}
	return z, app, hook
}

// fill proposes n messages and waits for their delivery.
func fill(t *testing.T, z *SingleZab, app *recorder, n int) []string {
	t.Helper()
	wait.For(t, "leading", 5*time.Second, func() bool { _, s := app.snapshot(); return s == Leading })
	for i := 0; i < n; i++ { // one at a time: snapshots come every snapCount deliveries, not batches
		if _, err := z.Propose([]byte(fmt.Sprintf("m%d", i))); err != nil {
			t.Fatal(err)
		}
		wait.For(t, "delivery", 5*time.Second, func() bool { got, _ := app.snapshot(); return len(got) == i+1 })
	}
	got, _ := app.snapshot()
	return got
}

func warned(hook *logtest.Hook, words string) bool {
	for _, e := range hook.AllEntries() {
		if e.Level <= logrus.WarnLevel && strings.Contains(e.Message, words) {
			return true
		}
	}
	return false
}

func TestTornLogTailIsCutAndReported(t *testing.T) {
	dir := t.TempDir()
	z, app, _ := single(t, dir, 1000)
	want := fill(t, z, app, 20)
	_ = z.Shutdown()
	logs, _ := filepath.Glob(filepath.Join(dir, "log.*"))
	sort.Strings(logs)
	f, err := os.OpenFile(logs[len(logs)-1], os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	end, _ := f.Seek(0, 2)
	// A half-written record after the last good one, as a crash leaves it.
	_, _ = f.WriteAt([]byte{0, 0, 0, 90, 1, 2, 3, 4, 5, 6, 7}, lastRecordEnd(t, f, end))
	f.Close()
	z, app, hook := single(t, dir, 1000)
	defer z.Shutdown()
	wait.For(t, "redelivery", 5*time.Second, func() bool { got, _ := app.snapshot(); return len(got) >= len(want) })
	if got, _ := app.snapshot(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after repair: %v, want %v", got, want)
	}
	if !warned(hook, "repaired") {
		t.Fatalf("no warning about the repaired log; logged: %v", hook.AllEntries())
	}
}

// lastRecordEnd finds where the records end in a preallocated file: the
// first offset after which the file holds only zeros.
func lastRecordEnd(t *testing.T, f *os.File, size int64) int64 {
	b := make([]byte, size)
	if _, err := f.ReadAt(b, 0); err != nil {
		t.Fatal(err)
	}
	i := len(b)
	for i > 0 && b[i-1] == 0 {
		i--
	}
	return int64(i)
}

func TestCorruptNewestSnapshotFallsBack(t *testing.T) {
	dir := t.TempDir()
	z, app, _ := single(t, dir, 10)
	want := fill(t, z, app, 35) // snapshots at 10, 20, 30
	_ = z.Shutdown()
	snaps, _ := filepath.Glob(filepath.Join(dir, "snapshot.*"))
	sort.Strings(snaps)
	if len(snaps) < 2 {
		t.Fatalf("want at least 2 snapshots, have %v", snaps)
	}
	newest := snaps[len(snaps)-1]
	b, _ := os.ReadFile(newest)
	b[len(b)-1] ^= 0xff
	if err := os.WriteFile(newest, b, 0o644); err != nil {
		t.Fatal(err)
	}
	z, app, hook := single(t, dir, 10)
	defer z.Shutdown()
	wait.For(t, "state rebuilt", 5*time.Second, func() bool { got, _ := app.snapshot(); return len(got) >= len(want) })
	if got, _ := app.snapshot(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after fallback: %v, want %v", got, want)
	}
	if !warned(hook, filepath.Base(newest)) {
		t.Fatalf("no warning naming %s; logged: %v", filepath.Base(newest), hook.AllEntries())
	}
}

func TestGarbageOnPeerPortIsRejected(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	lg, hook := logtest.NewNullLogger()
	e.cfgs[0].Logger = lg
	e.startAll()
	for i := 0; i < 3; i++ {
		c, err := net.Dial("tcp", e.cfgs[0].Peers[i].Addr)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = c.Write([]byte("GET / HTTP/1.0\r\n\r\n\x00\xff\xff\xff\xffgarbage"))
		c.Close()
	}
	e.commit(1, "still working")
	e.agree()
	wait.For(t, "peer 1 to say why it closed the connection", 5*time.Second, func() bool {
		return warned(hook, "rejecting connection")
	})
}
