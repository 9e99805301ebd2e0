// Command mwzk-grade grades an MWZooKeeper Service with the conformance
// suite (package mwzookeeper/conformance) and prints points per part:
//
//	mwzk-grade [--impl assignment|solution] [--repeat N] [--part A5.2]
//	           [--json grade.json] [--overlay file.json] [--variant file.diff]
//	mwzk-grade --list   (the parts and tests with their points)
//
// It runs, from the module's root folder,
//
//	MWZK_GRADE=1 go test -json -count=1 -run 'TestConformance/<part>/' ./assignments/aufgabe5/
//
// (./solutions/aufgabe5/ with --impl solution) N times. A test earns its
// points only if it passed in every run, so --repeat catches a flaky
// solution. The table lists each part's points, then every test without
// points with the first lines of its failure; grade.json holds the same.
// Grading runs without -race: it is about behaviour, and the race
// detector slows the ensembles down several times (make test runs the
// reference's suite with -race).
//
// --variant applies one of the known-bad variants under solutions/variants
// (unified diffs against solutions/aufgabe5) to copies of the files and
// grades the result through go test -overlay: the tree is not changed.
// The variants test (go test ./cmd/mwzk-grade) checks that each variant
// loses the points of the parts it names and keeps the others, that the
// reference earns every point and that the stubs earn none.
//
// The exit status is 0 when the suite ran, whatever the points, 1 when it
// could not be run, 2 for a bad command line. make grade wraps it.
package main
