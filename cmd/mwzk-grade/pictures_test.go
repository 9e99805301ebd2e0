package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"zablab/internal/artifacts"
)

// TestPicturesOfFailingTestsAreListed: a page a failing test left in its
// artifacts folder is listed under the test, printed by make grade and
// linked from report.html; a passing test's page is not, and a grading
// without any page leaves no folder.
func TestPicturesOfFailingTestsAreListed(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "grade-pictures")
	if err := preparePictures(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"A5.2/Linearizable", "A5.2/Sync"} {
		leavePage(t, runPictures(dir, 0, 1), name)
	}
	rep := &Report{Status: "graded", Parts: []PartGrade{{ID: "A5.2", Tests: []TestGrade{
		{Name: "Linearizable", Points: 4, Status: "fail", Failure: []string{"not linearizable"}},
		{Name: "Sync", Points: 3, Earned: 3, Status: "pass"},
	}}}}
	attachPictures(rep, dir, base, 1)
	want := filepath.Join("grade-pictures", "TestConformance_A5.2_Linearizable", "history.html")
	if got := rep.Parts[0].Tests[0].Pictures; len(got) != 1 || got[0] != want {
		t.Fatalf("pictures of the failing test: %q, want [%q]", got, want)
	}
	if got := rep.Parts[0].Tests[1].Pictures; len(got) != 0 {
		t.Fatalf("pictures of a passing test: %q, want none", got)
	}
	var out bytes.Buffer
	printFailures(&out, rep)
	if !strings.Contains(out.String(), "picture of the failure (open it in a browser): "+want) {
		t.Errorf("make grade's failures do not name the picture:\n%s", out.String())
	}
	page := filepath.Join(base, "report.html")
	if err := writeHTML(page, rep); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(page); !strings.Contains(string(b), `<a href="`+want+`">`) {
		t.Errorf("report.html does not link %s", want)
	}
	tidyPictures(rep, dir)
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("the pictures folder is gone although a test left a page: %v", err)
	}
	rep.Parts[0].Tests[0].Pictures = nil
	tidyPictures(rep, dir)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a grading without pictures left its folder %s (%v)", dir, err)
	}
}

// leavePage writes a page as test name (part/test) of the suite leaves it
// in its run's artifacts folder, and returns its path.
func leavePage(t *testing.T, runDir, name string) string {
	t.Helper()
	d := filepath.Join(runDir, artifacts.DirName(suitePrefix+name))
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(d, "history.html")
	if err := os.WriteFile(page, []byte("<html>not linearizable"), 0o644); err != nil {
		t.Fatal(err)
	}
	return page
}
