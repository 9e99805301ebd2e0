// Command mwzk-handout builds the student's handout of Aufgabe 5 and proves
// it works, the way a student will meet it.
//
//	mwzk-handout [--out handout/aufgabe5.tar.gz] [--rev REV] [--check=true]
//	             [--test-pkgs "./assignments/... ./mwzookeeper"]
//
// It packs every file git tracks (the working tree's content, or a commit's
// with --rev) under the folder aufgabe5/ of a gzipped tar, leaving out what
// only instructors get: solutions/ (the reference and its known-bad
// variants), handout/ itself, this command and its make file, and any Go
// file that imports zablab/solutions (such a file must be one a package can
// do without, e.g. cmd/mwzk-server's impls_solution.go). The handout gets
// its own README.md (student-readme.md), and the few sentences of its docs
// that are true of the instructors' tree only are rewritten (studentEdits
// in student.go; a sentence no longer found stops the build). The archive
// is reproducible: sorted entries, one fixed time, no owner.
//
// With --check (the default) it then unpacks the archive into a temporary
// folder, as a student would, and runs there: go build ./..., go vet ./...,
// make test on --test-pkgs, and make grade, which must report 0 points for
// the untouched stubs. Every step prints one progress line; any failure
// stops with a non-zero exit and the step's failing tests, packages and
// panics, then its output's last lines. A failed check keeps its temporary
// folder (the error names it) and renames the archive <out>.failed, so that
// no archive that failed its check is left under the name of a good one.
// A check stopped by SIGINT (Ctrl-C) or SIGTERM stops its step, removes
// its temporary folder (kept with --keep), leaves the archive as
// <out>.unchecked and exits 130.
//
// The same command keeps the student's tree honest: --parity compares
// assignments/aufgabe5 with solutions/aufgabe5 (same files, same top-level
// declarations and signatures) and prints any drift; its test does the same
// in make test.
package main
