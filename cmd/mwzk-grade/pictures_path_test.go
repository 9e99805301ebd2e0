package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestPrintedPictureOpensFromWhereTheGraderRan: with --json out/grade.json
// the pictures go to out/grade-pictures/, and make grade's printed line
// "picture of the failure (open it in a browser): <path>" must name a file
// that exists from the folder the grader ran in (the user's shell), not
// one relative to out/.
func TestPrintedPictureOpensFromWhereTheGraderRan(t *testing.T) {
	t.Chdir(t.TempDir())
	o := options{json: filepath.Join("out", "grade.json")}
	dir, base, err := picturesDir(o.jsonFile())
	if err != nil {
		t.Fatal(err)
	}
	if err := preparePictures(dir); err != nil {
		t.Fatal(err)
	}
	page := leavePage(t, runPictures(dir, 0, 1), "A5.2/Linearizable")
	rep := &Report{Status: "graded", Parts: []PartGrade{{ID: "A5.2", Tests: []TestGrade{
		{Name: "Linearizable", Points: 4, Status: "fail", Failure: []string{"not linearizable"}},
	}}}}
	attachPictures(rep, dir, base, 1)
	var out bytes.Buffer
	printFailures(&out, rep)
	m := regexp.MustCompile(`picture of the failure \(open it in a browser\): (\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no picture printed:\n%s", out.String())
	}
	if _, err := os.Stat(m[1]); err != nil {
		t.Fatalf("make grade prints %q, which does not open from the grader's folder (%v); the page is %s", m[1], err, page)
	}
}
