package main

import (
	"fmt"
	"io"
	"strings"

	"zablab/mwzookeeper/conformance"
)

// printReport prints the points per part and, for each failing test, its
// first failure lines.
func printReport(w io.Writer, rep Report) {
	runs := "1 run"
	if rep.Repeat > 1 {
		runs = fmt.Sprintf("%d runs; a test must pass in every run", rep.Repeat)
	}
	what := rep.Package
	if rep.Variant != "" {
		what += " with variant " + rep.Variant
	}
	fmt.Fprintf(w, "\nMWZooKeeper grade of %s (%s)\n\n", what, runs)
	fmt.Fprintf(w, "  %-5s %7s   %s\n", "part", "points", "title")
	for _, p := range rep.Parts {
		fmt.Fprintf(w, "  %-5s %3d / %-3d %s\n", p.ID, p.Score.Earned, p.Score.Possible, p.Title)
	}
	fmt.Fprintf(w, "\n  required parts: %d / %d points", rep.Required.Earned, rep.Required.Possible)
	if rep.Bonus.Possible > 0 {
		fmt.Fprintf(w, "; bonus: %d / %d", rep.Bonus.Earned, rep.Bonus.Possible)
	}
	fmt.Fprintln(w)
	printFailures(w, rep)
	if len(rep.Problems) > 0 {
		fmt.Fprintf(w, "\nOutput outside the tests (build errors, panics, timeouts):\n")
		for _, l := range rep.Problems {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
}

func printFailures(w io.Writer, rep Report) {
	header := false
	for _, p := range rep.Parts {
		for _, t := range p.Tests {
			if t.Status == "pass" {
				continue
			}
			if !header {
				fmt.Fprintf(w, "\nTests without points:\n")
				header = true
			}
			fmt.Fprintf(w, "\n  %s/%s (%s): %s", p.ID, t.Name, plural(t.Points, "point"), t.Status)
			if t.Runs > 1 {
				fmt.Fprintf(w, ", passed %d of %d runs", t.Passes, t.Runs)
			}
			fmt.Fprintln(w)
			for _, l := range t.Failure {
				fmt.Fprintf(w, "      %s\n", strings.TrimSpace(l))
			}
		}
	}
	if !header {
		fmt.Fprintf(w, "\nEvery test passed.\n")
		return
	}
	fmt.Fprintf(w, "\nOne part's tests with their whole output: make grade-a5.1 ... make grade-a5.7\n")
}

// printTests lists every part and test with its points and what it checks.
func printTests(w io.Writer) {
	for _, p := range conformance.Parts() {
		kind := ""
		if p.Optional {
			kind = ", optional"
		}
		fmt.Fprintf(w, "%s (%d points%s): %s\n", p.ID, p.Points, kind, p.Title)
		for _, t := range conformance.Tests() {
			if t.Part == p.ID {
				fmt.Fprintf(w, "  %-22s %2d  %s\n", t.Name, t.Points, t.Doc)
			}
		}
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
