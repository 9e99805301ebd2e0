package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode"

	"zablab/mwzookeeper/conformance"
)

// A known-bad variant is a unified diff against solutions/aufgabe5 with a
// preamble that says what it breaks and which parts it must lose:
//
//	Variant: answers a write when it is proposed, before it is applied
//	(the description may go on over several lines).
//	Loses: A5.1
//	Loses all: A5.7
//	May lose: A5.2
//	Why A5.2 may lose too: ...
//	Race: yes
//	--- a/solutions/aufgabe5/service.go
//	+++ b/solutions/aufgabe5/service.go
//	@@ ...
//
// An allowed variant is the other kind: a correct implementation that
// differs from the reference in a way the sheet leaves open. Instead of
// Loses lines it names the parts it must keep every point of:
//
//	Variant: the events of one write fire in reverse order
//	Keeps: A5.6, A5.7
//
// It guards against the opposite mistake, a test stricter than the sheet.
//
// "Race: yes" says the variant loses its parts only under the race
// detector (a data race, and nothing else wrong): make grade-variant
// grades it with --race.
//
// The grader applies it to the reference's files in memory and grades the
// result like any submission, in a copy of the tree: the checkout is never
// changed.

// variant is a parsed variant file.
type variant struct {
	file  string
	about string   // the Variant: line
	loses []string // the parts it must lose
	all   []string // parts it must lose every point of (also in loses)
	may   []string // parts it may lose too (a timing-dependent second symptom)
	keeps []string // an allowed variant: the parts it must keep whole
	race  bool     // graded under the race detector ("Race: yes")
	files []filePatch
}

// partList splits "A5.1 A5.2" or "A5.1, A5.2" into part ids.
func partList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}

// loadVariant reads and parses a variant file.
func loadVariant(file string) (*variant, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	pre, files, err := parseDiff(string(b))
	if err != nil {
		return nil, fmt.Errorf("variant %s: %w", file, err)
	}
	v := &variant{file: file, files: files}
	about := false // inside the Variant: paragraph
	for _, l := range pre {
		if s, ok := strings.CutPrefix(l, "Variant:"); ok {
			v.about, about = strings.TrimSpace(s), true
			continue
		}
		if about && l != "" && !isKindLine(l) {
			v.about += " " + strings.TrimSpace(l)
			continue
		}
		about = false
		// A kind's lines add up: a second one replaced the first, whose
		// parts then went unchecked.
		if s, ok := strings.CutPrefix(l, "Loses:"); ok {
			v.loses = append(v.loses, partList(s)...)
		}
		if s, ok := strings.CutPrefix(l, "Loses all:"); ok {
			v.all = append(v.all, partList(s)...)
		}
		if s, ok := strings.CutPrefix(l, "May lose:"); ok {
			v.may = append(v.may, partList(s)...)
		}
		if s, ok := strings.CutPrefix(l, "Keeps:"); ok {
			v.keeps = append(v.keeps, partList(s)...)
		}
		if s, ok := strings.CutPrefix(l, "Race:"); ok {
			if v.race = strings.TrimSpace(s) == "yes"; !v.race {
				return nil, fmt.Errorf("variant %s: \"Race:%s\": want \"Race: yes\" or no Race line", file, s)
			}
		}
	}
	v.loses = append(v.loses, v.all...)
	return v, v.check()
}

// isKindLine says whether a preamble line ends the Variant: paragraph.
func isKindLine(l string) bool {
	for _, p := range []string{"Loses", "May lose:", "Why", "Keeps:", "Race:"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// check refuses a variant whose preamble names no part, a part the suite
// does not have, or both kinds at once.
func (v *variant) check() error {
	for _, id := range slices.Concat(v.loses, v.may, v.keeps) {
		if !slices.ContainsFunc(conformance.Parts(), func(p conformance.Part) bool { return p.ID == id }) {
			return fmt.Errorf("variant %s: %q in a Loses, Loses all, May lose or Keeps line is no part of the suite", v.file, id)
		}
	}
	switch {
	case len(v.keeps) > 0 && len(v.loses)+len(v.may) > 0:
		return fmt.Errorf("variant %s: a Keeps line beside Loses or May lose: a variant is either known-bad or allowed", v.file)
	case len(v.keeps) == 0 && len(v.loses) == 0:
		return fmt.Errorf("variant %s: no \"Loses: A5.x\" (known-bad) or \"Keeps: A5.x\" (allowed) line before the diff", v.file)
	}
	return nil
}
