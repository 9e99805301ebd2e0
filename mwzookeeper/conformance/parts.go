package conformance

import "slices"

// Part is one part of the assignment: its points are split over its tests.
type Part struct {
	ID       string // "A5.1"
	Title    string
	Points   int
	Optional bool // an extra part: its points are a bonus
}

// Parts returns the parts of Aufgabe 5 in order.
func Parts() []Part {
	return []Part{
		{"A5.1", "Client-server, standalone (SingleZab): tree semantics, versions, MWStat, writes through Zab answered at delivery, local reads", 30, false},
		{"A5.2", "Replication (MultiZab, 3 peers): same state everywhere, local reads, sync, per-client order, state transfer, in-flight requests on leader loss, a linearizable history across a leader change", 30, false},
		{"A5.3", "Ephemeral nodes: gone after close, after expiry, and when the client's server stops; never on one replica only", 20, false},
		{"A5.4", "Consistent timestamps: equal on every replica despite skewed clocks, increasing across a leader change", 20, false},
		{"A5.5", "Sequential nodes (optional)", 5, true},
		{"A5.6", "Watches (optional)", 10, true},
		{"A5.7", "Multi (optional)", 5, true},
	}
}

// Test names one test of the suite and the points it carries within its
// part. Its subtest is TestConformance/<Part>/<Name>.
type Test struct {
	Part   string
	Name   string
	Points int
	Doc    string // what it checks, one line
	Extra  bool   // an instructor's hidden test (mwzk-grade --extra), not in the handout
}

// Tests returns every test of the suite, in the order Run runs them.
func Tests() []Test {
	out := make([]Test, len(suite))
	for i, s := range suite {
		out[i] = Test{Part: s.part, Name: s.name, Points: s.points, Doc: s.doc, Extra: s.extra()}
	}
	return out
}

// test is one entry of the suite.
type test struct {
	part   string
	name   string
	points int
	doc    string
	run    func(c *T)
}

// extras are the hidden tests' "part/name"s (addExtra).
var extras = map[string]bool{}

func (s *test) extra() bool { return extras[s.part+"/"+s.name] }

// suite lists every test; each part's file contributes its tests.
var suite = concat(treeTests, replicationTests, ephemeralTests, timeTests,
	sequentialTests, watchTests, multiTests)

// addExtra adds an instructor's hidden tests to the suite. An extra test
// file (package conformance, build tag mwzk_extra; mwzk-grade --extra DIR
// copies it in) calls it from its init: the tests run after the built-in
// tests of their part, and their points are added to the part's. See
// grading/extra-example/ for one.
func addExtra(tests ...test) {
	for _, t := range tests {
		extras[t.part+"/"+t.name] = true
		i := len(suite)
		for i > 0 && partIndex(suite[i-1].part) > partIndex(t.part) {
			i--
		}
		suite = slices.Insert(suite, i, t)
	}
}

// partIndex is p's place in Parts(), or len(Parts()) if unknown.
func partIndex(id string) int {
	for i, p := range Parts() {
		if p.ID == id {
			return i
		}
	}
	return len(Parts())
}

func concat(lists ...[]test) []test {
	var out []test
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
