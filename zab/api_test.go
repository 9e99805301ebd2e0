package zab

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"zablab/internal/wait"
	"zablab/properties"
)

// configWithLog writes text (with a log.file line added at its end) to
// peer.properties in a temporary folder, makes its Config, closes it
// twice (harmless), and returns the properties, the Config and what the
// peer logged.
func configWithLog(t *testing.T, text string) (*properties.Properties, Config, []byte) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "peer.properties")
	logFile := filepath.Join(dir, "peer.log")
	if err := os.WriteFile(file, []byte(text+"log.file="+logFile+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := properties.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ConfigFromProperties(p, true)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := cfg.Close(); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	return p, cfg, b
}

func TestUnknownKeyIsWarnedWithFileAndLine(t *testing.T) {
	p, _, b := configWithLog(t, "dataLogDir=d\nappSetting=5\nclientPort=2181\n")
	if !strings.Contains(string(b), "peer.properties:2") || !strings.Contains(string(b), "appSetting") {
		t.Fatalf("no warning naming appSetting at peer.properties:2 in the log:\n%s", b)
	}
	if strings.Contains(string(b), "clientPort") {
		t.Fatalf("clientPort, a service key, was warned about:\n%s", b)
	}
	if err := CheckKeys(p, "appSetting"); err != nil {
		t.Fatalf("CheckKeys with the extra key: %v", err)
	}
	if ws := UnknownKeys(p, "appSetting"); len(ws) != 0 {
		t.Fatalf("UnknownKeys with the extra key: %v", ws)
	}
}

func TestFromConfigOpensNoFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "never")
	cfg := Config{ID: 1, DataLogDir: dir, TickTime: 10 * time.Millisecond, InitLimit: 10, SyncLimit: 5,
		SnapCount: 100, Logger: quietLogger(), Peers: []Peer{{ID: 1, Addr: "127.0.0.1:1"}}}
	s, err := NewSingleZabFromConfig(&recorder{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMultiZabFromConfig(&recorder{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("building a peer touched %s: %v", dir, err)
	}
	if s.ID() != 1 || m.ID() != 1 {
		t.Fatalf("ID() = %d, %d", s.ID(), m.ID())
	}
	if _, err := NewMultiZabFromConfig(&recorder{}, Config{ID: 2, DataLogDir: dir}); !errors.Is(err, ErrConfig) {
		t.Fatalf("a Config without tuning: %v, want ErrConfig", err)
	}
}

// A leader whose clock is 5 s behind still stamps strictly increasing
// timestamps: max(its clock, last + 1).
func TestSkewedLeaderClockKeepsTimestampsIncreasing(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	var skew [3]atomic.Int64
	for i := range e.cfgs {
		i := i
		e.cfgs[i].Now = func() time.Time { return time.Now().Add(time.Duration(skew[i].Load())) }
	}
	e.startAll()
	e.commit(1, "before")
	l := e.leader()
	e.stop(l)
	for i := range skew {
		skew[i].Store(int64(-5 * time.Second))
	}
	f := l%3 + 1
	wait.For(t, "a new leader", 10*time.Second, e.settled)
	e.commit(f, "after")
	e.commit(f, "after2")
	app := e.apps[f-1]
	app.mu.Lock()
	defer app.mu.Unlock()
	for i := 1; i < len(app.ids); i++ {
		if app.ids[i].Timestamp <= app.ids[i-1].Timestamp {
			t.Fatalf("timestamp of %q (%v) not above that of %q (%v)", app.msgs[i], app.ids[i], app.msgs[i-1], app.ids[i-1])
		}
	}
}

// A follower whose leader dies while a proposal and a sync wait hears
// LOOKING well before syncLimit ticks (the leader's connection fails:
// core.MsgPeerLost); the sync is never delivered, the proposal at most once.
func TestFollowerWithPendingRequestsSeesLookingPromptly(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	for i := range e.cfgs {
		e.cfgs[i].SyncLimit = 20 // 400 ms
	}
	e.startAll()
	l := e.leader()
	f := l%3 + 1
	z, app := e.zabs[f-1], e.apps[f-1]
	e.stop(l)
	start := time.Now()
	if _, err := z.Propose([]byte("in flight")); err != nil {
		t.Skipf("the follower already knew: %v", err)
	}
	// The follower may notice between the two calls: then there is no
	// sync to wait for, and the proposal is still checked.
	sc, err := z.Sync()
	synced := err == nil
	if err != nil && !errors.Is(err, ErrNoLeader) {
		t.Fatal(err)
	}
	limit := time.Duration(e.cfgs[f-1].SyncLimit) * e.cfgs[f-1].TickTime
	wait.For(t, "LOOKING on the follower", limit, func() bool { _, s := app.snapshot(); return s == Looking })
	t.Logf("LOOKING %s after the proposal (syncLimit is %s)", time.Since(start).Round(time.Millisecond), limit)
	wait.For(t, "a new leader", 10*time.Second, e.settled)
	e.commit(f, "later")
	app.mu.Lock()
	defer app.mu.Unlock()
	if _, ok := app.syncs[sc.Seq]; synced && ok {
		t.Fatalf("DeliverSync for sync %d pending when the peer went LOOKING", sc.Seq)
	}
	n := 0
	for _, m := range app.msgs {
		if m == "in flight" {
			n++
		}
	}
	if n > 1 {
		t.Fatalf("the proposal in flight was delivered %d times", n)
	}
}

// TestRedefinedKeyIsWarnedWithFileAndLines: a key given twice takes the
// last value (as Java's Properties); the peer said nothing, so an operator
// who edited the first of two tickTime lines saw no effect and no reason.
// The peer's log names the file, the key and both lines.
func TestRedefinedKeyIsWarnedWithFileAndLines(t *testing.T) {
	_, cfg, b := configWithLog(t, "dataLogDir=d\ntickTime=100\nclientPort=2181\ntickTime=200\n")
	if cfg.TickTime != 200*time.Millisecond {
		t.Errorf("tickTime %v; want the last definition, 200ms", cfg.TickTime)
	}
	if !strings.Contains(string(b), `peer.properties:4: key \"tickTime\": defined again; line 2's`) || !strings.Contains(string(b), "level=warning") {
		t.Fatalf("no warning naming tickTime at peer.properties:4 and line 2 in the log:\n%s", b)
	}
}
