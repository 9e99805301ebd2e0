package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"zablab/internal/artifacts"
)

// Pictures of failures: a test of the suite that fails may leave a page
// that draws what went wrong (A5.2/Linearizable draws the history that is
// not linearizable, package internal/lincheck) in its artifacts folder.
// The grader gives every run of the suite such a folder
// (ZABLAB_ARTIFACTS) beside the grade's JSON and lists the pages of each
// test that earned no points: make grade prints them under the failure,
// and a batch's report.html links them.

// picturesDir is where a single grading keeps the pages: beside its JSON
// (grade.json: grade-pictures/, grade-A5.2.json: grade-A5.2-pictures/),
// or a new temporary folder when no JSON is written. base is the folder
// the listed paths are relative to: the current one, where the grade is
// printed (a batch lists them relative to each hand-in's report instead).
func picturesDir(jsonFile string) (dir, base string, err error) {
	if jsonFile == "" {
		dir, err = os.MkdirTemp("", "mwzk-grade-pictures-")
		return dir, ".", err
	}
	return strings.TrimSuffix(jsonFile, filepath.Ext(jsonFile)) + "-pictures", ".", nil
}

// preparePictures empties dir: pages left by an earlier grading of the
// same name would be taken for this one's.
func preparePictures(dir string) error {
	if dir == "" {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("pictures folder %s: %w", dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("pictures folder %s: %w", dir, err)
	}
	return nil
}

// runPictures is run k's (0-based) folder of dir, absolute: the suite
// runs in another folder.
func runPictures(dir string, k, repeat int) string {
	if dir == "" {
		return ""
	}
	if repeat > 1 {
		dir = filepath.Join(dir, fmt.Sprintf("run%d", k+1))
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// attachPictures lists, for every test that did not pass, the HTML pages
// its runs left in dir, relative to base; repeat is the runs asked for
// (the folders' layout), also when fewer ran.
func attachPictures(rep *Report, dir, base string, repeat int) {
	if dir == "" {
		return
	}
	for p := range rep.Parts {
		for i := range rep.Parts[p].Tests {
			tg := &rep.Parts[p].Tests[i]
			if tg.Status == "pass" {
				continue
			}
			name := artifacts.DirName(suitePrefix + rep.Parts[p].ID + "/" + tg.Name)
			for k := range repeat {
				pages, _ := filepath.Glob(filepath.Join(runPictures(dir, k, repeat), name, "*.html"))
				for _, page := range pages {
					tg.Pictures = append(tg.Pictures, relativeTo(base, page))
				}
			}
		}
	}
}

// relativeTo is path relative to base, or absolute where base is "" or
// the two share no root.
func relativeTo(base, path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if base == "" {
		return abs
	}
	b, err := filepath.Abs(base)
	if err != nil {
		return abs
	}
	if rel, err := filepath.Rel(b, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return abs
}

// tidyPictures removes dir if no test left a page in it.
func tidyPictures(rep *Report, dir string) {
	if dir == "" {
		return
	}
	for _, p := range rep.Parts {
		for _, t := range p.Tests {
			if len(t.Pictures) > 0 {
				return
			}
		}
	}
	os.RemoveAll(dir)
}
