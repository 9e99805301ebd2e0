package aufgabe5

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
	"zablab/properties"
)

// TestBadConfigurationNamesFileAndKey: a bad value is an error naming the
// file and key, and Stop after a failed Start is harmless.
func TestBadConfigurationNamesFileAndKey(t *testing.T) {
	for _, c := range []struct{ text, key string }{
		{"myid=1\ndataLogDir=log\ntickTime=soon\n", "tickTime"},
		{"myid=1\ndataLogDir=log\nticktime=100\n", "ticktime"},
		{"myid=1\n", "dataLogDir"},
	} {
		file := filepath.Join(t.TempDir(), "zab.properties")
		if err := os.WriteFile(file, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := properties.LoadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		s := New()
		err = s.Start(p, svctest.NewHostWithLog("bad", 0, "OFF"))
		if err == nil || !strings.Contains(err.Error(), "zab.properties") || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%q: Start error %v, want one naming the file and %s", c.text, err, c.key)
		}
		if err := s.Stop(); err != nil {
			t.Errorf("Stop after a failed Start: %v", err)
		}
	}
}

// TestStopAnswersEverythingWaiting: after Stop nothing hangs and new
// requests get ConnectionLoss.
func TestStopAnswersEverythingWaiting(t *testing.T) {
	e := start(t, 1, svctest.Options{})
	s := e.Session(t, 1, 0)
	svc := e.Service(1)
	var chs []<-chan *resp
	for k := 0; k < 50; k++ {
		chs = append(chs, e.DoAsync(1, &req{Op: mwzookeeper.OpCreate, Session: s, Path: "/s", Mode: mwzookeeper.PersistentSequential}))
		chs = append(chs, e.DoAsync(1, &req{Op: mwzookeeper.OpExists, Session: s, Path: "/"}))
	}
	if err := e.Stop(1); err != nil {
		t.Fatal(err)
	}
	for k, ch := range chs {
		select {
		case r := <-ch:
			if r.Err != nil && !errors.Is(r.Err, mwzookeeper.ErrConnectionLoss) {
				t.Fatalf("request %d: %v", k, r.Err)
			}
		default:
			t.Fatalf("request %d still unanswered after Stop returned", k)
		}
	}
	got := make(chan *resp, 1)
	svc.Submit(&req{Op: mwzookeeper.OpExists, Session: s, Path: "/"}, func(r *resp) { got <- r })
	mustErr(t, "a read after Stop", <-got, mwzookeeper.ErrConnectionLoss)
	if e.Host(1).IsServing() {
		t.Fatalf("still serving after Stop")
	}
}
