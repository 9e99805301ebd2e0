package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// gradeReport is the part of cmd/mwzk-grade's grade.json the check reads.
type gradeReport struct {
	Required, Bonus struct{ Earned, Possible int }
	Parts           []struct {
		ID    string
		Tests []struct{ Name, Status string }
	}
	Problems []string
	Grader   string
}

// zeroPoints checks that make grade, run on the untouched stubs in dir,
// ran every test of every part and gave 0 points, and sums the grade up.
// out is its output.
func zeroPoints(dir string, out []byte) (string, error) {
	rep, err := readGrade(dir, out)
	if err != nil {
		return "", err
	}
	tests := 0
	for _, p := range rep.Parts {
		tests += len(p.Tests)
	}
	return fmt.Sprintf("the untouched stubs earn required %d / %d, bonus %d / %d, %d tests of %d parts failed",
		rep.Required.Earned, rep.Required.Possible, rep.Bonus.Earned, rep.Bonus.Possible, tests, len(rep.Parts)), checkZero(rep)
}

// checkZero says what is wrong with the stubs' grade, if anything: points
// earned, a part or test that did not run, output outside the tests.
func checkZero(rep gradeReport) error {
	var bad []string
	if rep.Required.Earned != 0 || rep.Bonus.Earned != 0 {
		bad = append(bad, fmt.Sprintf("the stubs earned %d required and %d bonus points", rep.Required.Earned, rep.Bonus.Earned))
	}
	if !strings.HasPrefix(rep.Grader, "handout ") {
		bad = append(bad, fmt.Sprintf("grade.json names the grader %q, want the handout's version (%s)", rep.Grader, versionFile))
	}
	if rep.Required.Possible == 0 || len(rep.Parts) == 0 {
		bad = append(bad, "no parts graded")
	}
	for _, p := range rep.Parts {
		if len(p.Tests) == 0 {
			bad = append(bad, p.ID+" has no tests")
		}
		for _, t := range p.Tests {
			if t.Status != "fail" {
				bad = append(bad, fmt.Sprintf("%s/%s: %s, want fail", p.ID, t.Name, t.Status))
			}
		}
	}
	for _, l := range rep.Problems {
		bad = append(bad, "output outside the tests: "+l)
	}
	if len(bad) > 0 {
		return fmt.Errorf("%w: make grade on the untouched stubs:\n  %s", errCheck, strings.Join(bad, "\n  "))
	}
	return nil
}

// fullPoints checks that make grade, run on the reference copied into
// the handout, gave every point of every part: the handout grades a
// finished assignment as the instructors' tree does.
func fullPoints(dir string, out []byte) (string, error) {
	rep, err := readGrade(dir, out)
	if err != nil {
		return "", err
	}
	var bad []string
	if rep.Required.Earned != rep.Required.Possible || rep.Bonus.Earned != rep.Bonus.Possible || rep.Required.Possible == 0 {
		bad = append(bad, fmt.Sprintf("required %d / %d, bonus %d / %d", rep.Required.Earned, rep.Required.Possible, rep.Bonus.Earned, rep.Bonus.Possible))
	}
	for _, p := range rep.Parts {
		for _, t := range p.Tests {
			if t.Status != "pass" {
				bad = append(bad, fmt.Sprintf("%s/%s: %s, want pass", p.ID, t.Name, t.Status))
			}
		}
	}
	if len(bad) > 0 {
		return "", fmt.Errorf("%w: make grade with the reference copied in:\n  %s", errCheck, strings.Join(bad, "\n  "))
	}
	return fmt.Sprintf("the reference copied in earns required %d / %d, bonus %d / %d",
		rep.Required.Earned, rep.Required.Possible, rep.Bonus.Earned, rep.Bonus.Possible), nil
}

// readGrade reads the grade.json make grade wrote in dir; out is its
// output, shown when there is no report.
func readGrade(dir string, out []byte) (gradeReport, error) {
	var rep gradeReport
	data, err := os.ReadFile(filepath.Join(dir, "grade.json"))
	if err != nil {
		return rep, fmt.Errorf("%w: make grade wrote no report: %v\n%s", errCheck, err, tail(string(out), 20))
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return rep, fmt.Errorf("%w: %s: %v", errCheck, filepath.Join(dir, "grade.json"), err)
	}
	return rep, nil
}
