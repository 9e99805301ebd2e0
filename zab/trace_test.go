package zab

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zablab/internal/wait"
	"zablab/properties"
	"zablab/zab/trace"
)

// TestTraceRecordsAFailover: three traced peers, a leader stopped and
// started again; the merged trace matches every receipt with its send,
// shows both leaders with their epochs and every delivery.
func TestTraceRecordsAFailover(t *testing.T) {
	e := newEnsemble(t, 3)
	defer e.stopAll()
	dir := t.TempDir()
	e.traceTo(dir, 8<<20)
	e.startAll()
	e.propose(1, "before")
	wait.For(t, "before everywhere", 10*time.Second, func() bool { return e.allHave("before") })
	old := e.leader()
	e.stop(old)
	after := e.commit(1+old%3, "after")
	e.start(old)
	wait.For(t, "the old leader catches up", 10*time.Second, func() bool { return e.allHave("before", after) })
	e.stopAll()

	var files [][]trace.Event
	for i := range e.cfgs {
		evs, err := trace.ReadFile(e.cfgs[i].TraceFile)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, evs)
	}
	merged, st := trace.Merge(files)
	peerLost := 0
	leaders := map[uint32]uint64{} // epoch → leader in broadcast
	delivered := map[uint64]int{}
	stops := 0
	for _, ev := range merged {
		switch {
		case ev.Kind == trace.KindRecv && ev.Msg.Type == "PEERLOST":
			peerLost++
		case ev.Kind == trace.KindState && ev.Role == "LEADING" && ev.Phase == "broadcast":
			leaders[ev.Epoch] = ev.Peer
		case ev.Kind == trace.KindDeliver:
			delivered[ev.Peer]++
		case ev.Kind == trace.KindStop:
			stops++
		}
	}
	t.Logf("merge: %v", st)
	// Only what was in flight to the stopped leader may be lost.
	if st.Broken != 0 || st.Orphans != 0 || st.PeerLost != peerLost || st.Lost > st.Sends/10 || st.Crashes != 0 || stops != 4 {
		t.Fatalf("merge: %+v with %d PEERLOST notes and %d stops; want every receipt matched, few sends lost, no kill, 4 stops",
			st, peerLost, stops)
	}
	if len(leaders) < 2 {
		t.Fatalf("leaders by epoch %v: want the first leader and its successor", leaders)
	}
	for p := uint64(1); p <= 3; p++ {
		if delivered[p] < 2 {
			t.Fatalf("peer %d's trace has %d deliveries, want both messages", p, delivered[p])
		}
	}
}

// TestTraceOffWritesNothing: without trace.file a peer has no tracer and
// writes no file.
func TestTraceOffWritesNothing(t *testing.T) {
	e := newEnsemble(t, 1)
	defer e.stopAll()
	e.startAll()
	e.commit(1, "x")
	if z := e.zabs[0]; z.trace != nil {
		t.Fatal("a peer without trace.file has a tracer")
	}
	var traces []string
	_ = filepath.WalkDir(filepath.Dir(filepath.Dir(e.cfgs[0].DataLogDir)), func(p string, _ os.DirEntry, _ error) error {
		if strings.HasSuffix(p, ".trace") {
			traces = append(traces, p)
		}
		return nil
	})
	if len(traces) > 0 {
		t.Fatalf("trace files written without trace.file: %v", traces)
	}
}

// peerFile writes dir/peer1.properties, a lone peer's file with body
// after its dataLogDir, and loads it: errors then name the file.
func peerFile(t *testing.T, dir, body string) *properties.Properties {
	t.Helper()
	path := filepath.Join(dir, "peer1.properties")
	if err := os.WriteFile(path, []byte("dataLogDir=log\n"+body), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := properties.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTraceKeys(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) *properties.Properties { return peerFile(t, dir, body) }
	c, err := ConfigFromProperties(write("trace.file=traces/p1.trace\ntrace.maxMB=2\n"), true)
	if err != nil {
		t.Fatal(err)
	}
	if c.TraceFile != filepath.Join(dir, "traces", "p1.trace") || c.TraceMaxBytes != 2<<20 {
		t.Fatalf("trace.file %q, limit %d: want the path relative to the file's folder and 2 MiB", c.TraceFile, c.TraceMaxBytes)
	}
	c, err = ConfigFromProperties(write(""), true)
	if err != nil || c.TraceFile != "" || c.TraceMaxBytes != DefaultTraceMaxMB<<20 {
		t.Fatalf("without trace keys: %q, %d, %v; want off with the default limit", c.TraceFile, c.TraceMaxBytes, err)
	}
	for body, want := range map[string]string{
		"trace.maxMB=0\n":    "trace.maxMB",
		"trace.File=x\n":     `did you mean "trace.file"`,
		"trace.maxMB=lots\n": "trace.maxMB",
	} {
		_, err := ConfigFromProperties(write(body), true)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "peer1.properties") {
			t.Errorf("%q: %v; want ErrConfig naming the file and %s", body, err, want)
		}
	}
}
