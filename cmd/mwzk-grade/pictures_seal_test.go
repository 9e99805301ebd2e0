package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pagesProbe is an instructor's hidden test that fails and leaves two
// pages in its pictures folder: one written through artifacts.Write, as
// the suite writes a failing history, and one beside it with plain
// os.WriteFile, as graded code in the same process could.
const pagesProbe = `//go:build mwzk_extra

package conformance

import (
	"os"
	"path/filepath"

	"zablab/internal/artifacts"
)

func init() {
	addExtra(test{"A5.1", "PagesProbe", 1, "leaves a page of the suite and one of its own", testPagesProbe})
}

func testPagesProbe(c *T) {
	dir := artifacts.Keep(c.T)
	if err := artifacts.Write(filepath.Join(dir, "history.html"), []byte("<html>the suite's</html>")); err != nil {
		c.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "planted.html"), []byte("<html>all tests passed</html>"), 0o644); err != nil {
		c.Fatal(err)
	}
	c.Error("PAGES-PROBE failed on purpose")
}
`

// TestOnlyVouchedPagesAreLinked: of the pages a sandboxed run leaves, the
// report links only the one the suite vouched for on the signed channel;
// the other is dropped and counted.
func TestOnlyVouchedPagesAreLinked(t *testing.T) {
	root := testRoot(t, false)
	if err := sandboxCheck(); err != nil {
		t.Skipf("no sandbox on this machine (%v)", err)
	}
	extra := t.TempDir()
	if err := os.WriteFile(filepath.Join(extra, "pages_probe.go"), []byte(pagesProbe), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeTree(t, dir, inFolder("", folderFiles(t, root, "assignments/aufgabe5")))
	pictures := t.TempDir()
	rep := gradeFolder(t, root, dir, options{part: "A5.1", extra: extra, pictures: pictures, picturesBase: pictures})
	var probe *TestGrade
	for p := range rep.Parts {
		for i := range rep.Parts[p].Tests {
			if rep.Parts[p].Tests[i].Name == "PagesProbe" {
				probe = &rep.Parts[p].Tests[i]
			}
		}
	}
	if probe == nil || probe.Status != "fail" {
		t.Fatalf("the probe did not run and fail: %+v\n%q", probe, rep.Problems)
	}
	if len(probe.Pictures) != 1 || filepath.Base(probe.Pictures[0]) != "history.html" {
		t.Errorf("pictures linked: %q, want only the suite's history.html", probe.Pictures)
	}
	if !strings.Contains(strings.Join(rep.Problems, "\n"), "1 file(s) in the run's pictures folder were not pages the suite wrote") {
		t.Errorf("the planted page is not counted among the problems: %q", rep.Problems)
	}
}
