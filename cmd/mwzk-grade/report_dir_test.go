package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestReportsNameTheGradedFolder: a hand-in tarred from the handout's
// parent folder has its files in aufgabe5/assignments/aufgabe5/, and other
// copies of the folder's test files beside them are listed as ignored; the
// text and HTML reports say which folder was graded, not the generic one.
func TestReportsNameTheGradedFolder(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, inFolder("aufgabe5", map[string]string{
		"apply.go":            "package aufgabe5\n",
		"conformance_test.go": "package aufgabe5\n",
	}))
	sub, err := loadSubmission(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	rep := &Report{Submission: "carol", Status: "graded", Dir: sub.at(""), Ignored: sub.Ignored, Files: []string{"apply.go"}}
	const want = "aufgabe5/assignments/aufgabe5/"
	var text bytes.Buffer
	printReport(&text, rep)
	if !strings.Contains(text.String(), "only "+want+"*.go is graded") || !strings.Contains(text.String(), "Graded files ("+want+")") {
		t.Errorf("the text report does not name %s as the graded folder:\n%s", want, text.String())
	}
	html := reportHTML(t, rep)
	if !strings.Contains(html, "<code>"+want+"*.go</code> is graded") || !strings.Contains(html, "Graded files in <code>"+want+"</code>") {
		t.Errorf("the HTML report does not name %s as the graded folder", want)
	}
}
