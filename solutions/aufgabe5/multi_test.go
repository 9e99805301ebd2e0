package aufgabe5

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

func TestMultiIsAllOrNothing(t *testing.T) {
	e := start(t, 3, svctest.Options{})
	s := e.Session(t, 2, time.Minute)
	w := e.Session(t, 2, time.Minute)
	e.Do(t, 2, &req{Op: mwzookeeper.OpExists, Session: w, Path: "/m", Watch: true})
	ok := mustOK(t, "multi", e.Do(t, 2, &req{Op: mwzookeeper.OpMulti, Session: s, Ops: []mwzookeeper.Op{
		{Op: mwzookeeper.OpCreate, Path: "/m", Data: []byte("a")},
		{Op: mwzookeeper.OpCreate, Path: "/m/s-", Mode: mwzookeeper.PersistentSequential},
		{Op: mwzookeeper.OpSetData, Path: "/m", Data: []byte("b"), Version: 0},
		{Op: mwzookeeper.OpCheck, Path: "/m", Version: 1},
	}}))
	if len(ok.Results) != 4 || ok.Results[1].Path != "/m/s-0000000000" || ok.Results[2].Stat.Version != 1 ||
		ok.Results[2].Stat.Mzxid != ok.Zxid || ok.Results[0].Path != "/m" {
		t.Fatalf("multi results %+v", ok.Results)
	}
	if len(e.Host(2).Events(w)) != 1 {
		t.Fatalf("multi fired %v", e.Host(2).Events(w))
	}
	before := treeString(e.Service(2).(*Service))
	e.Do(t, 2, &req{Op: mwzookeeper.OpGetData, Session: w, Path: "/m", Watch: true})
	bad := e.Do(t, 2, &req{Op: mwzookeeper.OpMulti, Session: s, Ops: []mwzookeeper.Op{
		{Op: mwzookeeper.OpSetData, Path: "/m", Data: []byte("c"), Version: -1},
		{Op: mwzookeeper.OpDelete, Path: "/m/s-0000000000", Version: -1},
		{Op: mwzookeeper.OpCreate, Path: "/m/x", Mode: mwzookeeper.Ephemeral},
		{Op: mwzookeeper.OpCheck, Path: "/m", Version: 1}, // now 2: fails
		{Op: mwzookeeper.OpCreate, Path: "/m/y"},
	}})
	mustErr(t, "failing multi", bad, mwzookeeper.ErrBadVersion)
	wantErrs := []error{nil, nil, nil, mwzookeeper.ErrBadVersion, mwzookeeper.ErrRuntimeInconsistency}
	for k, r := range bad.Results {
		if (wantErrs[k] == nil) != (r.Err == nil) || (r.Err != nil && !errors.Is(r.Err, wantErrs[k])) {
			t.Fatalf("result %d: %v, want %v", k, r.Err, wantErrs[k])
		}
	}
	if after := treeString(e.Service(2).(*Service)); after != before {
		t.Fatalf("a failed multi changed the tree:\n%s\nbefore:\n%s", after, before)
	}
	if len(e.Host(2).Events(w)) != 1 {
		t.Fatalf("a failed multi fired %v", e.Host(2).Events(w))
	}
	waitSame(t, e)
}

// treeString prints the tree, sorted by path: every stat and datum.
func treeString(s *Service) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var paths []string
	for p := range s.tree.nodes {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var b strings.Builder
	for _, p := range paths {
		n := s.tree.nodes[p]
		fmt.Fprintf(&b, "%s %+v %q\n", p, n.stat, n.data)
	}
	return b.String()
}
