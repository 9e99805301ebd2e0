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
//	--- a/solutions/aufgabe5/service.go
//	+++ b/solutions/aufgabe5/service.go
//	@@ ...
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
		if about && l != "" && !strings.HasPrefix(l, "Loses") && !strings.HasPrefix(l, "May lose:") && !strings.HasPrefix(l, "Why") {
			v.about += " " + strings.TrimSpace(l)
			continue
		}
		about = false
		if s, ok := strings.CutPrefix(l, "Loses:"); ok {
			v.loses = partList(s)
		}
		if s, ok := strings.CutPrefix(l, "Loses all:"); ok {
			v.all = partList(s)
		}
		if s, ok := strings.CutPrefix(l, "May lose:"); ok {
			v.may = partList(s)
		}
	}
	v.loses = append(v.loses, v.all...)
	for _, id := range append(slices.Clone(v.loses), v.may...) {
		if !slices.ContainsFunc(conformance.Parts(), func(p conformance.Part) bool { return p.ID == id }) {
			return nil, fmt.Errorf("variant %s: %q in a Loses, Loses all or May lose line is no part of the suite", file, id)
		}
	}
	if len(v.loses) == 0 {
		return nil, fmt.Errorf("variant %s: no \"Loses: A5.x\" line before the diff", file)
	}
	return v, nil
}
