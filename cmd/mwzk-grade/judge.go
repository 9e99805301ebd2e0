package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// Judging a variant's grade against its preamble: the variants test does
// it for every variant, make grade-variant for the one it grades, so an
// instructor writing a new variant sees whether its lines hold. One place
// for both, so the two cannot disagree.

// verdict is whether one line of a variant's preamble held for one part.
type verdict struct {
	decl   string // "Loses: A5.2", "Loses all: A5.7", "May lose: A5.3", "Keeps: A5.6", "Not named, must keep: A5.1"
	part   string
	graded bool   // false: the grading left the part out (--part)
	held   bool   // meaningful only when graded
	score  string // "0/30"
	why    string // for one not held: what went against it
}

func (v verdict) String() string {
	switch {
	case !v.graded:
		return fmt.Sprintf("%s — not graded here (another part was chosen)", v.decl)
	case v.held:
		return fmt.Sprintf("%s — held (%s)", v.decl, v.score)
	}
	return fmt.Sprintf("%s — NOT held: %s has %s%s", v.decl, v.part, v.score, v.why)
}

// judge says for each line of v's preamble, part by part, whether rep
// bears it out. A known-bad variant must lose its Loses parts (every point
// of its Loses all parts) and keep every part it does not name but those
// it May lose; an allowed one must keep its Keeps parts whole.
func (v *variant) judge(rep Report) []verdict {
	var out []verdict
	at := func(decl, id string) (verdict, PartGrade) {
		i := slices.IndexFunc(rep.Parts, func(p PartGrade) bool { return p.ID == id })
		if i < 0 {
			return verdict{decl: decl + id, part: id}, PartGrade{}
		}
		p := rep.Parts[i]
		return verdict{decl: decl + id, part: id, graded: true, score: fmt.Sprintf("%d/%d", p.Score.Earned, p.Score.Possible)}, p
	}
	if len(v.keeps) > 0 {
		for _, id := range v.keeps {
			vd, p := at("Keeps: ", id)
			vd.held = p.Score.Earned == p.Score.Possible
			vd.why = failed(p, ", which it must keep whole: ")
			out = append(out, vd)
		}
		return out
	}
	for _, id := range v.all {
		vd, p := at("Loses all: ", id)
		vd.held = p.Score.Earned == 0
		vd.why = ": it must lose every point (the suite catches it only in part)"
		out = append(out, vd)
	}
	for _, id := range v.loses {
		if slices.Contains(v.all, id) {
			continue // loadVariant added the Loses all parts to loses
		}
		vd, p := at("Loses: ", id)
		vd.held = p.Score.Earned < p.Score.Possible
		vd.why = ": the suite does not catch it"
		out = append(out, vd)
	}
	for _, id := range v.may {
		vd, _ := at("May lose: ", id)
		vd.held = true
		out = append(out, vd)
	}
	for _, p := range rep.Parts {
		if slices.Contains(v.loses, p.ID) || slices.Contains(v.may, p.ID) {
			continue
		}
		vd, _ := at("Not named, must keep: ", p.ID)
		vd.held = p.Score.Earned == p.Score.Possible
		vd.why = failed(p, ", which it must keep (does a test check more than its part?): ")
		out = append(out, vd)
	}
	return out
}

// failed names the tests of p that did not pass, after lead ("" when
// every test passed): the report above says how each failed.
func failed(p PartGrade, lead string) string {
	var names []string
	for _, tg := range p.Tests {
		if tg.Status != "pass" {
			names = append(names, tg.Name+" "+tg.Status)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return lead + strings.Join(names, ", ")
}

// errVariantBroken: a variant's grade does not bear out its preamble.
var errVariantBroken = fmt.Errorf("the variant's preamble does not hold")

// printVerdicts ends make grade-variant's report with a line per
// declaration, and says whether all held.
func printVerdicts(w io.Writer, v *variant, rep Report) error {
	fmt.Fprintf(w, "\nVariant %s: %s\n", strings.TrimSuffix(filepath.Base(v.file), ".diff"), v.about)
	if v.race && !rep.Race {
		// --race=false: graded as a hand-in is with RACE=0, where a
		// data race alone costs nothing.
		return keepsAllWithoutRace(w, v, rep)
	}
	var broken []string
	for _, vd := range v.judge(rep) {
		fmt.Fprintf(w, "  %s\n", visible(vd.String()))
		if vd.graded && !vd.held {
			broken = append(broken, vd.decl)
		}
	}
	switch {
	case len(broken) > 0 && rep.Status == "timeout":
		timedOut(w)
	case len(broken) > 0:
		return fmt.Errorf("%w: variant %s: %s", errVariantBroken, v.file, strings.Join(broken, "; "))
	}
	return nil
}

// keepsAllWithoutRace judges a "Race: yes" variant graded without the race
// detector: it must keep every point of the parts graded.
func keepsAllWithoutRace(w io.Writer, v *variant, rep Report) error {
	fmt.Fprintf(w, "  graded without the race detector (--race=false): it must keep every point (%s)\n", shortTotals(&rep))
	for _, p := range rep.Parts {
		if p.Score.Earned < p.Score.Possible && rep.Status == "timeout" {
			timedOut(w)
			return nil
		}
		if p.Score.Earned < p.Score.Possible {
			return fmt.Errorf("%w: variant %s: without the race detector it lost points of %s", errVariantBroken, v.file, p.ID)
		}
	}
	return nil
}

// timedOut says why lines that did not hold are no error after a timeout:
// the grading's own error says it ran out of time, and a part it cut short
// proves nothing about the preamble.
func timedOut(w io.Writer) {
	fmt.Fprintf(w, "  the grading ran out of time: the lines NOT held may be the time's doing, not the preamble's; grade again with a larger TIMEOUT\n")
}
