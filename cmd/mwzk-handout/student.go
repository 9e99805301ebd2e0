package main

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// studentReadme is the handout's README.md: the instructor's README talks
// about the reference, the variants and building the handout, none of
// which a student has.
//
//go:embed student-readme.md
var studentReadme []byte

// studentEdit replaces, in one file of the handout, a sentence that is
// true of the instructors' tree only.
type studentEdit struct {
	path, old, new string
}

// studentEdits are the sentences the handout says otherwise. A sentence
// that is no longer found fails the build: the doc changed, and the edit
// must follow it rather than let the instructors' text through.
var studentEdits = []studentEdit{
	// The handout's mwzk-server has no reference compiled in: the
	// students' Service is all it runs, and the default.
	{"docs/operations.md",
		"(`--impl assignment` runs the students' Service instead of the reference, the default;",
		"(It runs your Service, `assignments/aufgabe5`: without `--impl`, and with `--impl assignment`;"},
}

// errStudentEdit is a studentEdits sentence the handout's file lacks.
var errStudentEdit = errors.New("a sentence the handout rewrites is gone")

// forStudents gives the handout its own README.md and applies
// studentEdits.
func forStudents(kept []file) ([]file, error) {
	for i, f := range kept {
		if f.path == "README.md" {
			kept[i].data = studentReadme
		}
		for _, e := range studentEdits {
			if e.path != f.path {
				continue
			}
			if !bytes.Contains(kept[i].data, []byte(e.old)) {
				return nil, fmt.Errorf("%w: %s no longer says %q (edit cmd/mwzk-handout/student.go's studentEdits)", errStudentEdit, e.path, e.old)
			}
			kept[i].data = bytes.Replace(kept[i].data, []byte(e.old), []byte(e.new), 1)
		}
	}
	return kept, nil
}

// instructorWords are what a student's text must not mention: things the
// handout does not have, which would send a student to targets that fail.
var instructorWords = regexp.MustCompile(`(?i)solutions/|IMPL=solution|known-bad|variants/|Varianten|make handout|grade-variant|grade-all`)

// studentText says whether a handout file is text a student reads: the
// Markdown files and the makefiles (make help prints their ## comments).
func studentText(path string) bool {
	return strings.HasSuffix(path, ".md") || path == "Makefile" || strings.HasPrefix(path, "mk/")
}

// mentions lists "file:line: text" for every line of the handout's student
// text that mentions what only instructors have. Makefile lines that are
// not comments or help texts are code, which may test for solutions/.
func mentions(kept []file) []string {
	var out []string
	for _, f := range kept {
		if !studentText(f.path) {
			continue
		}
		for i, line := range strings.Split(string(f.data), "\n") {
			if !instructorWords.MatchString(line) || !readable(f.path, line) {
				continue
			}
			out = append(out, fmt.Sprintf("%s:%d: %s", f.path, i+1, strings.TrimSpace(line)))
		}
	}
	return out
}

// readable says whether a line is something a student reads: all of a
// Markdown file, a makefile's comments and the help text after "## ".
func readable(path, line string) bool {
	if strings.HasSuffix(path, ".md") {
		return true
	}
	if _, help, ok := strings.Cut(line, "## "); ok {
		return instructorWords.MatchString(help)
	}
	return strings.HasPrefix(strings.TrimSpace(line), "#")
}
