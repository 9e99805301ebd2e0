package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPictureOfARepeatCutShortByATimeout: with --repeat 3, gradeInTree
// gives run 1 the folder runPictures(dir, 0, 3) = dir/run1 (grade.go,
// spec.pictures); when that run times out the loop breaks after one run.
// attachPictures must still look in dir/run1 (it takes the repeat asked
// for, not the runs that ran: with len(runs) = 1 it looked in dir, the
// page was not listed, and tidyPictures deleted it).
func TestPictureOfARepeatCutShortByATimeout(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "grade-pictures")
	if err := preparePictures(dir); err != nil {
		t.Fatal(err)
	}
	const repeat = 3
	// run 1's suite gets runPictures(dir, 0, repeat) as ZABLAB_ARTIFACTS
	page := leavePage(t, runPictures(dir, 0, repeat), "A5.2/Linearizable")
	rep := &Report{Status: "graded", Repeat: repeat, Parts: []PartGrade{{ID: "A5.2", Tests: []TestGrade{
		{Name: "Linearizable", Points: 4, Status: "fail", Runs: 1, Failure: []string{"not linearizable"}},
	}}}}
	attachPictures(rep, dir, base, repeat) // as grade.go calls it, although only run 1 ran
	tidyPictures(rep, dir)
	if len(rep.Parts[0].Tests[0].Pictures) == 0 {
		_, err := os.Stat(page)
		t.Fatalf("the page run 1 left (%s) is not listed under the failing test; after tidyPictures: %v", page, err)
	}
}
