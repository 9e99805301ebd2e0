package conformance

import (
	"fmt"
	"slices"
	"strings"

	"zablab/mwzookeeper"
)

// A script is a list of requests with the answers ZooKeeper gives them,
// run in order on one replica; a test fails at the first answer that
// differs, printing both (the idea of zetcd's xchk cross-checker).

// check says what ZooKeeper answers and whether r is that answer.
type check func(r *mwzookeeper.Response) (expected string, ok bool)

type step struct {
	req  *mwzookeeper.Request
	want check
}

// runScript runs steps, ZooKeeper's answers, on replica i.
func (x *ens) runScript(name string, i int, steps []step) {
	x.c.Helper()
	x.runScriptBy(name, "as ZooKeeper answers", i, steps)
}

// runScriptBy runs steps on replica i; by says whose rule the answers
// follow, for the failure message.
func (x *ens) runScriptBy(name, by string, i int, steps []step) {
	x.c.Helper()
	for k, st := range steps {
		r := x.do(i, st.req)
		if exp, ok := st.want(r); !ok {
			x.c.failf(fmt.Sprintf("%s, step %d of %d, %s", name, k+1, len(steps), opText(st.req)),
				exp+" ("+by+")", describe(st.req, r))
		}
	}
}

func wantErr(want error) check {
	return func(r *mwzookeeper.Response) (string, bool) {
		return "error " + codeText(want), r.Err != nil && sameCode(r.Err, want)
	}
}

func wantOK() check {
	return func(r *mwzookeeper.Response) (string, bool) { return "success", r.Err == nil }
}

func wantName(p string) check {
	return func(r *mwzookeeper.Response) (string, bool) {
		return fmt.Sprintf("the created name %q", p), r.Err == nil && r.Path == p
	}
}

func wantData(d string, version int32) check {
	return func(r *mwzookeeper.Response) (string, bool) {
		return fmt.Sprintf("data %q with version %d and dataLength %d", d, version, len(d)),
			r.Err == nil && string(r.Data) == d && r.Stat.Version == version && r.Stat.DataLength == int32(len(d))
	}
}

func wantVersion(v int32) check {
	return func(r *mwzookeeper.Response) (string, bool) {
		return fmt.Sprintf("a stat with version %d", v), r.Err == nil && r.Stat.Version == v
	}
}

// wantNewStat expects the stat of a node just created with n bytes of
// data: made and last changed by the same write, version 0.
func wantNewStat(n int32) check {
	return func(r *mwzookeeper.Response) (string, bool) {
		return fmt.Sprintf("the new node's stat (czxid = mzxid > 0, version 0, dataLength %d)", n),
			r.Err == nil && r.Stat.Czxid > 0 && r.Stat.Mzxid == r.Stat.Czxid && r.Stat.Version == 0 && r.Stat.DataLength == n
	}
}

// wantChildren expects exactly these children, sorted. The node
// /zookeeper that ZooKeeper keeps under "/" is ignored.
func wantChildren(names ...string) check {
	return func(r *mwzookeeper.Response) (string, bool) {
		exp := fmt.Sprintf("children %q (sorted)", names)
		if r.Err != nil {
			return exp, false
		}
		got := slices.DeleteFunc(slices.Clone(r.Children), func(s string) bool { return s == "zookeeper" })
		return exp, slices.Equal(got, names)
	}
}

// wantStat checks a getChildren2/exists stat's child counters.
func wantChildCount(n, cversion int32) check {
	return func(r *mwzookeeper.Response) (string, bool) {
		return fmt.Sprintf("a stat with numChildren %d and cversion %d", n, cversion),
			r.Err == nil && r.Stat.NumChildren == n && r.Stat.Cversion == cversion
	}
}

func both(a, b check) check {
	return func(r *mwzookeeper.Response) (string, bool) {
		ea, oka := a(r)
		eb, okb := b(r)
		return strings.TrimPrefix(ea+" and "+eb, " and "), oka && okb
	}
}
