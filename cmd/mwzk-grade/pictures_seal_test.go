package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pagesProbe is an instructor's hidden test that fails as A5.2/Linearizable
// does on a history that is not linearizable (a read that missed a write
// completed before it), so lincheck draws the page, and leaves a second
// page beside it with plain os.WriteFile, as graded code in the same
// process could.
const pagesProbe = `//go:build mwzk_extra

package conformance

import (
	"os"
	"path/filepath"

	"github.com/anishathalye/porcupine"

	"zablab/internal/artifacts"
	"zablab/internal/lincheck"
)

func init() {
	addExtra(test{"A5.1", "PagesProbe", 1, "draws a history that is not linearizable, and plants a page beside it", testPagesProbe})
}

func testPagesProbe(c *T) {
	create := lincheck.Input{Kind: lincheck.Create, Key: "/k", Data: "a", Version: -1}
	set := lincheck.Input{Kind: lincheck.Set, Key: "/k", Data: "b", Version: 0}
	get := lincheck.Input{Kind: lincheck.Get, Key: "/k"}
	stale := []porcupine.Operation{
		lincheck.Op(0, 0, 10, create, lincheck.Output{}),
		lincheck.Op(0, 20, 30, set, lincheck.Output{Version: 1}),
		lincheck.Op(1, 40, 50, get, lincheck.Output{Data: "a", Version: 0}),
	}
	err := lincheck.Verify(c.T, stale, nil, lincheck.Page{Title: "PAGES-PROBE"})
	planted := filepath.Join(artifacts.Keep(c.T), "planted.html")
	if werr := os.WriteFile(planted, []byte("<html>all tests passed</html>"), 0o644); werr != nil {
		c.Fatal(werr)
	}
	c.Errorf("PAGES-PROBE: %v", err)
}
`

// TestOnlyVouchedPagesAreLinked: of the pages a sandboxed run leaves, the
// report links only the one the suite vouched for on the signed channel;
// the other is dropped and counted. It also follows a failing history's
// page the whole way, from lincheck through the sandbox to the report,
// on every run (a variant that was to draw one did not always).
func TestOnlyVouchedPagesAreLinked(t *testing.T) {
	root := testRoot(t, false)
	needSandbox(t, "the pages come out of a sandboxed run")
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
		t.Fatalf("pictures linked: %q, want only the suite's history.html; failure %q", probe.Pictures, probe.Failure)
	}
	if b, err := os.ReadFile(filepath.Join(pictures, probe.Pictures[0])); err != nil || !strings.Contains(string(b), "PAGES-PROBE") || !strings.Contains(string(b), "setData(/k") {
		t.Errorf("the page %s: %v (%d bytes), want lincheck's drawing of the history", probe.Pictures[0], err, len(b))
	}
	if !strings.Contains(strings.Join(rep.Problems, "\n"), "1 file(s) in the run's pictures folder were not pages the suite wrote") {
		t.Errorf("the planted page is not counted among the problems: %q", rep.Problems)
	}
}
