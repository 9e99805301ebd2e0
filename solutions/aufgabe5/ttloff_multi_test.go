package aufgabe5

import (
	"errors"
	"testing"
	"time"

	"zablab/internal/svctest"
	"zablab/mwzookeeper"
)

// TestTTLOffMultiResultsKeepTheirOps: a multi with a TTL create
// while TTL nodes are off fails at that op, and, as for every failed
// multi (conformance's failingMulti: res.Op == req.Ops[k].Op), each
// result names the op it answers. The refused op's result must say
// createTTL, not the internal opTTLOff (OpError) of the copied request.
func TestTTLOffMultiResultsKeepTheirOps(t *testing.T) {
	e := start(t, 3, svctest.Options{})
	l := e.Leader()
	s := e.Session(t, l, time.Minute)
	ops := []mwzookeeper.Op{
		{Op: mwzookeeper.OpCreate, Path: "/a", ACL: mwzookeeper.OpenACL},
		{Op: mwzookeeper.OpCreateTTL, Path: "/t", Mode: mwzookeeper.PersistentTTL, TTL: 60_000, ACL: mwzookeeper.OpenACL},
		{Op: mwzookeeper.OpCreateTTL, Path: "/u", Mode: mwzookeeper.PersistentTTL, TTL: 60_000, ACL: mwzookeeper.OpenACL},
	}
	r := e.Do(t, l, &req{Op: mwzookeeper.OpMulti, Session: s, Ops: ops})
	if !errors.Is(r.Err, mwzookeeper.ErrUnimplemented) {
		t.Fatalf("multi with a TTL create while TTL nodes are off: %v, want Unimplemented", r.Err)
	}
	if len(r.Results) != len(ops) {
		t.Fatalf("%d results for %d ops", len(r.Results), len(ops))
	}
	for k, res := range r.Results {
		if res.Op != ops[k].Op {
			t.Errorf("result %d answers op %s, want %s (the request's op)", k, res.Op, ops[k].Op)
		}
	}
}
