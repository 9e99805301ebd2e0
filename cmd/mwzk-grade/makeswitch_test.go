package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMakeSwitchWords: mk/grade.mk's switches take 1, yes, true, on and
// 0, no, false, off, and stop at any other word. NO_SANDBOX=off, =No or
// =False had turned the sandbox off (a review's test): any word but 0, no
// and false was on, and RACE=0 had turned the race detector on.
func TestMakeSwitchWords(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	makeN := func(args ...string) (string, error) {
		out, err := exec.Command("make", append([]string{"-s", "-n", "--no-print-directory", "-C", "../.."}, args...)...).CombinedOutput()
		return string(out), err
	}
	targets := [][]string{{"grade"}}
	if _, err := os.Stat("../../mk/instructor.mk"); err == nil { // not in the student's handout
		targets = append(targets, []string{"grade-all", "SUBMISSIONS=x"})
	}
	for _, target := range targets {
		name := strings.Join(target, " ")
		for _, w := range []string{"off", "No", "NO", "False", "FALSE", "n", "0"} {
			if out, _ := makeN(append(target, "NO_SANDBOX="+w)...); strings.Contains(out, "--no-sandbox") {
				t.Errorf("make %s NO_SANDBOX=%s grades without the sandbox:\n%s", name, w, out)
			}
		}
		for _, w := range []string{"1", "yes", "on"} {
			if out, err := makeN(append(target, "NO_SANDBOX="+w)...); err != nil || !strings.Contains(out, "--no-sandbox") {
				t.Errorf("make %s NO_SANDBOX=%s: %v, want --no-sandbox:\n%s", name, w, err, out)
			}
		}
		for w, want := range map[string]string{"0": "--race=false", "off": "--race=false", "1": "--race"} {
			if out, err := makeN(append(target, "RACE="+w)...); err != nil || !strings.Contains(out, want+" ") && !strings.HasSuffix(strings.TrimSpace(out), want) {
				t.Errorf("make %s RACE=%s: %v, want %s:\n%s", name, w, err, want, out)
			}
		}
		if out, err := makeN(append(target, "RACE=maybe")...); err == nil || !strings.Contains(out, "RACE=maybe: want 1 or 0") {
			t.Errorf("make %s RACE=maybe: %v, want a stop naming the word:\n%s", name, err, out)
		}
		// Each word was read alone: "0 yes" held an on word (a review).
		for _, v := range []string{"NO_SANDBOX=0 yes", "NO_SANDBOX=off 1", "RACE=maybe 0"} {
			if out, err := makeN(append(target, v)...); err == nil || !strings.Contains(out, v+": want one word") {
				t.Errorf("make %s %q: %v, want a stop naming the value:\n%s", name, v, err, out)
			}
		}
	}
	if out, _ := makeN("grade-a5.1", "RACE=0"); strings.Contains(out, "-race") {
		t.Errorf("make grade-a5.1 RACE=0 runs the race detector:\n%s", out)
	}
	if out, _ := makeN("grade-a5.1"); !strings.Contains(out, "go test -race") {
		t.Errorf("make grade-a5.1 runs without the race detector by default:\n%s", out)
	}
}
