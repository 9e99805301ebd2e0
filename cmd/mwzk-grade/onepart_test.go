package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnePartPageShowsNoBonus: report.html of PART=A5.2 said "bonus 0 / 0"
// where report.txt and the console show no bonus at all (a grade of one
// part has none to give); a whole grade's page and text still show it.
func TestOnePartPageShowsNoBonus(t *testing.T) {
	for _, part := range []string{"A5.2", ""} {
		rep := &Report{Submission: "alice", Origin: "hand-ins/alice", Status: "graded", Part: part, Repeat: 1}
		score(rep, nil, part)
		var txt strings.Builder
		printReport(&txt, rep)
		page := filepath.Join(t.TempDir(), "report.html")
		if err := writeHTML(page, rep); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		want := part == "" // only a whole grade has optional parts
		if got := strings.Contains(txt.String(), "bonus"); got != want {
			t.Errorf("PART=%q: report.txt mentions a bonus: %v, want %v:\n%s", part, got, want, txt.String())
		}
		if got := strings.Contains(strings.ToLower(string(b)), "bonus"); got != want {
			t.Errorf("PART=%q: report.html mentions a bonus: %v, want %v (report.txt: %v)", part, got, want, want)
		}
	}
}
